package dev.vyre.cuda.graph;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The frontier kernel's parameters ({@code VfParams} in {@code frontier/frontier.cu}), passed by
 * value: every field 8 bytes, in the order of the components here. Pointers are device addresses
 * (mapped host memory's device address for a graph left in host memory).
 *
 * @param row out-edge offsets, n + 1 longs
 * @param col out-edge targets, m ints
 * @param inRow in-edge offsets for pull (the out-edges again on an undirected graph)
 * @param inCol in-edge sources
 * @param value depth or label, n ints
 * @param parent BFS parents, n ints (0 for components)
 * @param queue0 the input frontier of even levels: n ints, then its hubs ({@link FrontierLog#queueInts})
 * @param queue1 of odd levels
 * @param bitmaps three bitmaps of {@code words} ints
 * @param state the state block, {@link FrontierLog#STATE_WORDS} longs
 * @param log the level log, {@link FrontierLog#LOG_WORDS} longs a level
 * @param decisions the decision table ({@code FrontierResidency.DECISION_TABLE_BYTES}), or 0 for none
 * @param n vertices
 * @param m stored edges
 * @param words ints of one bitmap, a multiple of 4
 * @param requiredBytes the residency plan's required bytes
 * @param budgetBytes its budget
 * @param readbackBytes the result bytes read back
 * @param fitting bit t set when topology t (its ordinal) fits the budget
 * @param forced the forced topology's ordinal, or -1
 * @param algorithm 0 BFS, 1 label propagation, 2 Afforest (which has an entry point of its own)
 * @param source the BFS source
 * @param logLevels levels the log holds before it wraps
 * @param probeEdges most edges the calibration's pass reads
 * @param calibrateOnly 1 to stop after the calibration (the per-level baseline's first launch)
 */
record FrontierKernelParams(long row, long col, long inRow, long inCol, long value, long parent, long queue0,
    long queue1, long bitmaps, long state, long log, long decisions, long n, long m, long words, long requiredBytes,
    long budgetBytes, long readbackBytes, long fitting, long forced, long algorithm, long source, long logLevels,
    long probeEdges, long calibrateOnly) {

  /** The algorithm field's values ({@code VF_BFS}, {@code VF_COMPONENTS}, {@code VF_AFFOREST}). */
  static final long BFS = 0;
  static final long LABEL_PROPAGATION = 1;
  static final long AFFOREST = 2;

  /** Fields of the block. */
  static final int FIELDS = FrontierKernelParams.class.getRecordComponents().length;

  /** Ints of one bitmap over {@code n} vertices: a bit a vertex, rounded up to 16 bytes. */
  static long bitmapWords(long n) {
    return ((n + 31) / 32 + 3) / 4 * 4;
  }

  /** These parameters with calibrateOnly set. */
  FrontierKernelParams calibratingOnly() {
    return new FrontierKernelParams(row, col, inRow, inCol, value, parent, queue0, queue1, bitmaps, state, log,
        decisions, n, m, words, requiredBytes, budgetBytes, readbackBytes, fitting, forced, algorithm, source,
        logLevels, probeEdges, 1);
  }

  /** The block as the kernel reads it, in {@code arena}. */
  MemorySegment pack(Arena arena) {
    long[] fields = {row, col, inRow, inCol, value, parent, queue0, queue1, bitmaps, state, log, decisions, n, m,
        words, requiredBytes, budgetBytes, readbackBytes, fitting, forced, algorithm, source, logLevels, probeEdges,
        calibrateOnly};
    MemorySegment block = arena.allocate(JAVA_LONG, fields.length);
    for (int i = 0; i < fields.length; i++) {
      block.setAtIndex(JAVA_LONG, i, fields[i]);
    }
    return block;
  }
}

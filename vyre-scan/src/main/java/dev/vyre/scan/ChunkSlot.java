package dev.vyre.scan;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.ReadCompletion;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.dfa.DfaStepArgs;
import java.util.Arrays;

/**
 * One chunk buffer of a {@link ScanJob}: the HOST_MAPPED input resource the chunk reader fills
 * (buffer {@code index} of its pool), the resource its DFA_STEP tasks scan (that buffer, or a
 * DEVICE copy of it), the DEVICE hit resource its tasks append to, and what it holds now: one
 * chunk of a file, or several small files packed one after another (segments), so that they share
 * one batch of tasks and one read-back of hits. Each task still covers one file, so the DFA
 * restarts at every file's start and no match spans two files; the hit records' input ids say
 * whose match each is. A slot is free, being read (a pack by a {@link PackReaders} thread, which
 * owns it meanwhile), being copied and published (by its lane's {@link LanePublisher}, likewise),
 * being scanned, or collected: its tasks finished and its hits wait in its hit resource until every
 * earlier chunk was passed on (chunks finish out of order), then are passed on segment by segment;
 * it is reused only after that.
 */
final class ChunkSlot implements HitResources.HitSink {

  /** {@link #hitHandle} of a slot whose tasks count in place and so have no hit buffer. */
  static final int NO_HIT_BUFFER = -1;

  final int index;
  /** The kernel whose resources these are, and which scans the chunk. */
  final ScanLane lane;
  /** The HOST_MAPPED buffer the reader fills. */
  final int inputHandle;
  /** The resource DFA_STEP reads: the buffer itself, or its DEVICE copy. */
  final int scanHandle;
  int hitHandle;
  long hitCapacity;
  /**
   * The slot's column of its lane's counters: when the job only counts, its tasks add to them in count
   * mode, one per segment ({@link ScanLane#counters}), and no hit record is written or read back.
   */
  private final int column;
  /** The segments' files, chunks and where in the buffer each starts; packed files read whole, in file order. */
  private final FileScan[] files;
  private final ChunkPlanner.Chunk[] chunks;
  private final long[] bufferOffsets;
  private final int[] bytesRead;
  private final int[] inputIds;
  /**
   * Per segment of a pack, why a {@link PackReaders} thread could not open or read its file, else
   * null; the job's thread hands it to the file ({@link #takePackReads}), which only that thread touches.
   */
  private final String[] readFailures;
  private final boolean[] openFailures;
  private int segments;
  /** Tasks the segments need, at most the batch's size. */
  private int tasks;
  /** Bytes of the buffer the segments take. */
  private long filled;
  /** The copy to the DEVICE resource, when the chunk is staged there, and whether it is to be made. */
  long copy;
  boolean copyFirst;
  /** The ticket of the chunk's last task; tickets retire in order, so the others are done too. */
  long lastTicket;
  /** Hit records whose input id named no segment, which a correct kernel never writes. */
  long foreignHits;
  /** Its tasks finished and its {@link #hitCount} hits wait to be passed on. */
  boolean collected;
  long hitCount;
  /** Segments whose hits were passed on (or dropped): their files no longer count this buffer. */
  int delivered;
  /** Per segment, its hits' count, then where its range of the {@link HitOrder} begins; one more at the end. */
  private final int[] segmentHits;
  private HitOrder order;
  private int mode;
  private static final int COUNT = 0;
  private static final int PLACE = 1;
  private static final int APPEND = 2;

  /** Where a pack reader puts the ranges of the files it reads together ({@link PackReaders#read}), reused. */
  final Ranges ranges;

  /** The arguments and results of one {@link dev.vyre.io.ChunkReader#readAll} of a pack's files. */
  static final class Ranges {
    final int[] segments = new int[PackReaders.GROUP];
    final int[] files = new int[PackReaders.GROUP];
    final long[] fileOffsets = new long[PackReaders.GROUP];
    final int[] lengths = new int[PackReaders.GROUP];
    final long[] bufferOffsets = new long[PackReaders.GROUP];
    final ReadCompletion[] completions = new ReadCompletion[PackReaders.GROUP];
  }

  /**
   * A slot of a job that only counts (its lane has counters; {@code hitHandle} is NO_HIT_BUFFER) counts
   * its matches in place, in column {@code column} of its lane's counters.
   */
  ChunkSlot(int index, ScanLane lane, int column, int inputHandle, int scanHandle, int hitHandle, long hitCapacity,
      int maxSegments) {
    this.index = index;
    this.lane = lane;
    this.inputHandle = inputHandle;
    this.scanHandle = scanHandle;
    this.hitHandle = hitHandle;
    this.hitCapacity = hitCapacity;
    this.files = new FileScan[maxSegments];
    this.chunks = new ChunkPlanner.Chunk[maxSegments];
    this.bufferOffsets = new long[maxSegments];
    this.bytesRead = new int[maxSegments];
    this.inputIds = new int[maxSegments];
    this.readFailures = new String[maxSegments];
    this.openFailures = new boolean[maxSegments];
    this.segmentHits = new int[maxSegments + 1];
    this.ranges = new Ranges();
    this.column = column;
  }

  /** Adds a segment: {@code held} of {@code holder}, read to the end of the buffer's filled part. */
  void hold(FileScan holder, ChunkPlanner.Chunk held, int taskCount) {
    files[segments] = holder;
    chunks[segments] = held;
    bufferOffsets[segments] = filled;
    bytesRead[segments] = 0;
    readFailures[segments] = null;
    inputIds[segments] = holder.inputId;
    segments++;
    tasks += taskCount;
    filled += held.readLength();
    holder.buffersHeld++;
  }

  /**
   * Whether a whole file of {@code bytes} bytes needing {@code taskCount} tasks fits after the
   * segments; a first segment always does, being no larger than a chunk.
   */
  boolean fits(long bytes, long taskCount, long packedBytes, int maxTasks) {
    return segments == 0 || segments < files.length && filled + bytes <= packedBytes && tasks + taskCount <= maxTasks;
  }

  /** Where the bytes read end: the segments are read in order, so at the end of the last one's read. */
  long readEnd() {
    return segments == 0 ? 0 : bufferOffsets[segments - 1] + bytesRead[segments - 1];
  }

  /** Takes the finished read of the last segment. */
  void read(int bytes) {
    bytesRead[segments - 1] = bytes;
  }

  /** Where {@code segment} is read into. */
  long bufferOffset(int segment) {
    return bufferOffsets[segment];
  }

  /** A pack reader read {@code bytes} of {@code segment}'s file. */
  void readSegment(int segment, int bytes) {
    bytesRead[segment] = bytes;
  }

  /**
   * A pack reader could not open ({@code open}) or read {@code segment}'s file: it keeps its place
   * with no bytes, so no task covers it, and its file fails when the pack comes back.
   */
  void failSegment(int segment, String reason, boolean open) {
    bytesRead[segment] = 0;
    readFailures[segment] = reason;
    openFailures[segment] = open;
  }

  /** Fails the files of a pack that came back whose open or read failed (the job's thread). */
  void takePackReads() {
    for (int segment = 0; segment < segments; segment++) {
      if (readFailures[segment] == null) {
        continue;
      }
      if (openFailures[segment]) {
        files[segment].failToOpen(readFailures[segment]);
      } else {
        files[segment].failUnreadable(readFailures[segment]);
      }
      readFailures[segment] = null;
    }
  }

  int segments() {
    return segments;
  }

  FileScan file(int segment) {
    return files[segment];
  }

  ChunkPlanner.Chunk chunk(int segment) {
    return chunks[segment];
  }

  /**
   * Adds one DFA_STEP per task of each segment to {@code batch}, each over its own file's bytes,
   * so the DFA starts afresh at every file. A file that shrank since it was listed is scanned as
   * far as it was read.
   */
  void addTasks(TaskBatch batch, int[] args, int tasksPerChunk, int dfaHandle, int startState) {
    MatchCounters counters = lane.counters;
    args[DfaStepArgs.MODE_ARG] = counters == null ? DfaStepArgs.MODE_RECORDS : DfaStepArgs.MODE_COUNT;
    int hits = counters == null ? hitHandle : counters.handle();
    for (int segment = 0; segment < segments; segment++) {
      FileScan file = files[segment];
      ChunkPlanner.Chunk chunk = chunks[segment];
      long firstTask = chunk.index() * tasksPerChunk;
      long endTask = Math.min(firstTask + tasksPerChunk, file.tasks.chunkCount());
      for (long k = firstTask; k < endTask; k++) {
        ChunkPlanner.Chunk task = file.tasks.chunk(k);
        long at = task.readOffset() - chunk.readOffset();
        long length = Math.min(task.readLength(), bytesRead[segment] - at);
        if (length > task.reportFrom()) {
          DfaStepArgs.write(args, scanHandle, bufferOffsets[segment] + at, length, dfaHandle, startState, hits,
              counters == null ? file.inputId : counterOf(segment), task.readOffset(), task.reportFrom());
          batch.add(0, DfaStepArgs.OPCODE, args);
        }
      }
    }
  }

  /** The bytes the segments' chunks own and were read: a file that shrank since it was listed counts what was read. */
  long scannedBytes() {
    long bytes = 0;
    for (int segment = 0; segment < segments; segment++) {
      ChunkPlanner.Chunk chunk = chunks[segment];
      bytes += Math.max(0, Math.min(chunk.readLength(), bytesRead[segment]) - chunk.reportFrom());
    }
    return bytes;
  }

  /**
   * Counts the {@code count} hit records of a chunk of several files per segment ({@link
   * #segmentHits}), reading them back from the hit resource.
   */
  private void countHits(long count) {
    Arrays.fill(segmentHits, 0, segments + 1, 0);
    mode = COUNT;
    lane.hits.collect(hitHandle, count, this);
  }

  /**
   * Reads the {@link #hitCount} records back into {@code into}, sorted: a single chunk after the hits
   * carried from the file's previous chunk, several files each in its own range ({@link #hitsFrom}).
   */
  void loadHits(HitOrder into) {
    order = into;
    if (segments == 1) {
      into.begin(hitCount, true);
      mode = APPEND;
      lane.hits.collect(hitHandle, hitCount, this);
      into.sort(0, into.size());
    } else {
      countHits(hitCount);
      int begin = 0;
      for (int segment = 0; segment <= segments; segment++) {
        int count = segmentHits[segment];
        segmentHits[segment] = begin;
        begin += count;
      }
      into.begin(hitCount, false);
      mode = PLACE;
      foreignHits = 0;
      lane.hits.replay(hitCount, this);
      for (int segment = 0; segment < segments; segment++) {
        into.sort(hitsFrom(segment), hitsFrom(segment + 1));
      }
    }
    order = null;
  }

  /** Where the sorted hits of {@code segment} of a chunk of several files begin, after {@link #loadHits}. */
  int hitsFrom(int segment) {
    // PLACE advanced each segment's begin to its end, which is where the next one begins.
    return segment == 0 ? 0 : segmentHits[segment - 1];
  }

  /**
   * Takes a hit record: counts it per segment, or adds it to the order, by its input id (ascending,
   * as the files are in order).
   */
  @Override
  public void hit(int inputId, long start, int patternId) {
    if (mode == APPEND) {
      if (inputId == inputIds[0]) {
        order.add(start, patternId);
      } else {
        foreignHits++;
      }
      return;
    }
    int segment = Arrays.binarySearch(inputIds, 0, segments, inputId);
    if (segment < 0) {
      foreignHits++;
    } else if (mode == COUNT) {
      segmentHits[segment]++;
    } else {
      order.set(segmentHits[segment]++, start, patternId);
    }
  }

  /**
   * Empties the hit resource for the slot's next chunk, or takes the counts (after the lane read them
   * back: {@link ScanLane#readCounts}) and drops them.
   */
  void resetHits() {
    if (lane.counters == null) {
      lane.hits.reset(hitHandle, hitCapacity);
    } else {
      for (int segment = 0; segment < segments; segment++) {
        segmentCount(segment);
      }
    }
  }

  /** Whether the slot's tasks count in place of writing hit records: the job only counts. */
  boolean counting() {
    return lane.counters != null;
  }

  /**
   * The matches of {@code segment} that this chunk's tasks counted, once the lane read its counters
   * back after they finished ({@link ScanLane#readCounts}); taken once a segment. The counters are
   * never zeroed: a chunk's count is what its counter gained since the slot's chunk before.
   */
  long segmentCount(int segment) {
    return lane.counters.take(counterOf(segment));
  }

  private int counterOf(int segment) {
    return segment * lane.columns + column;
  }

  /** Fails the scan if hit records named no segment's file ({@link #foreignHits}): a backend bug. */
  void requireOwnHits() {
    if (foreignHits > 0) {
      throw PipelineException.backend(foreignHits + " hit record(s) for " + files[0].file.path()
          + " carried an input id of no file in its chunk. Fix: report this backend bug");
    }
  }

  /** The next segment's hits were passed on: its file no longer counts this buffer. */
  void delivered() {
    files[delivered].buffersHeld--;
    delivered++;
  }

  void release() {
    for (int i = 0; i < segments; i++) {
      if (i >= delivered) {
        files[i].buffersHeld--;
      }
      files[i] = null;
      chunks[i] = null;
    }
    segments = 0;
    tasks = 0;
    filled = 0;
    foreignHits = 0;
    collected = false;
    hitCount = 0;
    delivered = 0;
  }
}

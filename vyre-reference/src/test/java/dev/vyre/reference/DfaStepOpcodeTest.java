package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.dfa.Hit;
import dev.vyre.runtime.dfa.HitBufferLayout;
import dev.vyre.runtime.dfa.MatchCountLayout;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.PackedSlotCodec;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.NaiveMatcher;
import dev.vyre.scan.PatternSet;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Opcode DFA_STEP through the public host API, with resources placed as the scan places them
 * (input HOST_MAPPED, table and hits DEVICE) and hits read back with readResource. Backend-neutral:
 * runs on the reference backend here and on CUDA through scripts/gpu-check.sh ({@link TestBackends}).
 */
class DfaStepOpcodeTest {

  private static final PatternSet PATTERNS = PatternSet.fromArguments(List.of("he", "she", "his", "hers"), false);
  private static final byte[] TEXT = "ushers say she sells his shells to hers".getBytes(StandardCharsets.US_ASCII);

  private Megakernel kernel;
  private int dfa;
  private DfaTable table;

  private void start(int workers) {
    kernel = Megakernel.builder().backend(TestBackends.selected()).slots(256).singlePriority(Priority.NORMAL)
        .workers(workers).bootstrap();
    table = AhoCorasickCompiler.compile(PATTERNS);
    dfa = upload(table.segment(), ResourcePlacement.DEVICE);
  }

  @AfterEach
  void stop() {
    if (kernel != null) {
      kernel.close();
    }
  }

  private int upload(MemorySegment bytes, ResourcePlacement placement) {
    int handle = kernel.allocateResource(bytes.byteSize(), placement);
    kernel.writeResource(handle, 0, bytes);
    return handle;
  }

  private int hitBuffer(long capacity) {
    MemorySegment header = MemorySegment.ofArray(new int[] {0, (int) capacity, 0, 0});
    int handle = kernel.allocateResource(HitBufferLayout.byteSize(capacity), ResourcePlacement.DEVICE);
    kernel.writeResource(handle, 0, header);
    return handle;
  }

  /** The whole hit resource, copied out; read only after the tasks that write it finished. */
  private MemorySegment readHits(int handle, long capacity) {
    MemorySegment copy = Arena.ofAuto().allocate(HitBufferLayout.byteSize(capacity), 4);
    kernel.readResource(handle, 0, copy);
    return copy;
  }

  private TaskResult run(DfaStepArgs args) throws Exception {
    return kernel.submit(Task.of(Opcodes.DFA_STEP, args.toArgs())).get(10, TimeUnit.SECONDS);
  }

  private static List<Hit> sorted(List<Hit> hits) {
    List<Hit> copy = new ArrayList<>(hits);
    copy.sort(null);
    return copy;
  }

  private static List<Hit> shifted(List<Hit> hits, long delta) {
    return hits.stream().map(h -> new Hit(h.inputId(), h.start() + delta, h.patternId())).toList();
  }

  @Test
  void appendsEveryOverlappingHitWithInputIdAndBaseOffset() throws Exception {
    start(1);
    int input = upload(MemorySegment.ofArray(TEXT), ResourcePlacement.HOST_MAPPED);
    int hits = hitBuffer(64);
    TaskResult result = run(new DfaStepArgs(input, 0, TEXT.length, dfa, table.startState(), hits, 7, 1L << 40, 0));
    assertEquals(SlotStatus.DONE, result.status());
    MemorySegment stored = readHits(hits, 64);
    List<Hit> expected = shifted(NaiveMatcher.findAll(PATTERNS, TEXT, 7), 1L << 40);
    assertEquals(expected.size(), HitBufferLayout.cursor(stored));
    assertEquals(expected, sorted(HitBufferLayout.readAll(stored)));
  }

  @Test
  void reportFromSkipsMatchesEndingInTheOverlap() throws Exception {
    start(1);
    int input = upload(MemorySegment.ofArray(TEXT), ResourcePlacement.HOST_MAPPED);
    int hits = hitBuffer(64);
    // Scan "shers say she" (offsets 1..13) as a chunk whose first 3 bytes belong to the previous one.
    assertTrue(run(new DfaStepArgs(input, 1, 13, dfa, table.startState(), hits, 0, 1, 3)).isDone());
    List<Hit> expected = NaiveMatcher.findAll(PATTERNS, TEXT, 0).stream()
        .filter(h -> h.start() >= 1 && h.start() + PATTERNS.length(h.patternId()) > 4
            && h.start() + PATTERNS.length(h.patternId()) <= 14)
        .toList();
    assertEquals(expected, sorted(HitBufferLayout.readAll(readHits(hits, 64))));
  }

  @Test
  void overflowCountsEveryHitButStoresOnlyCapacity() throws Exception {
    start(1);
    int input = upload(MemorySegment.ofArray(TEXT), ResourcePlacement.HOST_MAPPED);
    int hits = hitBuffer(2);
    assertTrue(run(new DfaStepArgs(input, 0, TEXT.length, dfa, table.startState(), hits, 0, 0, 0)).isDone());
    MemorySegment stored = readHits(hits, 2);
    assertEquals(NaiveMatcher.findAll(PATTERNS, TEXT, 0).size(), HitBufferLayout.cursor(stored));
    assertTrue(HitBufferLayout.overflowed(stored));
    assertEquals(2, HitBufferLayout.readAll(stored).size());
  }

  @Test
  void unknownHandlesFaultAndWriteNothing() throws Exception {
    start(1);
    int input = upload(MemorySegment.ofArray(TEXT), ResourcePlacement.HOST_MAPPED);
    int hits = hitBuffer(64);
    byte[] before = readHits(hits, 64).toArray(ValueLayout.JAVA_BYTE);
    int missing = 4000;
    for (DfaStepArgs args : List.of(
        new DfaStepArgs(missing, 0, TEXT.length, dfa, 0, hits, 0, 0, 0),
        new DfaStepArgs(input, 0, TEXT.length, missing, 0, hits, 0, 0, 0),
        new DfaStepArgs(input, 0, TEXT.length, dfa, 0, missing, 0, 0, 0),
        new DfaStepArgs(input, 0, TEXT.length, dfa, 0, -1, 0, 0, 0))) {
      TaskResult result = run(args);
      assertEquals(SlotStatus.FAULT, result.status(), args.toString());
      assertEquals(FaultReason.RESOURCE_OUT_OF_RANGE, result.fault(), args.toString());
    }
    assertArrayEquals(before, readHits(hits, 64).toArray(ValueLayout.JAVA_BYTE));
  }

  @Test
  void aHostMappedHitBufferFaultsOnEveryBackendAndIsLeftUntouched() throws Exception {
    start(1);
    int input = upload(MemorySegment.ofArray(TEXT), ResourcePlacement.HOST_MAPPED);
    int[] header = {0, 64, 0, 0};
    int mappedHits = kernel.allocateResource(HitBufferLayout.byteSize(64), ResourcePlacement.HOST_MAPPED);
    kernel.writeResource(mappedHits, 0, MemorySegment.ofArray(header));
    // Its cursor would be a device atomic on mapped host memory (DfaStep, "Faults"); even a malformed
    // table faults for the hit buffer first, as on CUDA.
    for (DfaStepArgs args : List.of(new DfaStepArgs(input, 0, TEXT.length, dfa, table.startState(), mappedHits, 0, 0, 0),
        new DfaStepArgs(input, 0, TEXT.length, input, 0, mappedHits, 0, 0, 0))) {
      TaskResult result = run(args);
      assertEquals(SlotStatus.FAULT, result.status(), args.toString());
      assertEquals(FaultReason.RESOURCE_OUT_OF_RANGE, result.fault(), args.toString());
    }
    assertArrayEquals(header, readHits(mappedHits, 64).asSlice(0, 16).toArray(ValueLayout.JAVA_INT));
  }

  @Test
  void outOfRangeArgumentsFaultWithTheirReasonAndWriteNothing() throws Exception {
    start(1);
    int input = upload(MemorySegment.ofArray(TEXT), ResourcePlacement.HOST_MAPPED);
    int hits = hitBuffer(64);
    int shortHits = kernel.allocateResource(HitBufferLayout.byteSize(1), ResourcePlacement.DEVICE);
    int[] claimsFour = {0, 4, 0, 0};
    kernel.writeResource(shortHits, 0, MemorySegment.ofArray(claimsFour));
    byte[] before = readHits(hits, 64).toArray(ValueLayout.JAVA_BYTE);
    int n = TEXT.length;
    record Case(DfaStepArgs args, FaultReason reason) {}
    for (Case c : List.of(
        new Case(new DfaStepArgs(input, 1, n, dfa, 0, hits, 0, 0, 0), FaultReason.RESOURCE_OUT_OF_RANGE),
        new Case(new DfaStepArgs(input, n + 1, 0, dfa, 0, hits, 0, 0, 0), FaultReason.RESOURCE_OUT_OF_RANGE),
        new Case(new DfaStepArgs(input, 0, 0xFFFF_FFFFL, dfa, 0, hits, 0, 0, 0), FaultReason.RESOURCE_OUT_OF_RANGE),
        new Case(new DfaStepArgs(input, 0, n, dfa, 0, hits, 0, -1L, 0), FaultReason.RESOURCE_OUT_OF_RANGE),
        new Case(new DfaStepArgs(input, 0, n, dfa, 0, shortHits, 0, 0, 0), FaultReason.RESOURCE_OUT_OF_RANGE),
        new Case(new DfaStepArgs(input, 0, n, dfa, table.stateCount(), hits, 0, 0, 0), FaultReason.MALFORMED_TABLE),
        new Case(new DfaStepArgs(input, 0, n, input, 0, hits, 0, 0, 0), FaultReason.MALFORMED_TABLE))) {
      TaskResult result = run(c.args());
      assertEquals(SlotStatus.FAULT, result.status(), c.toString());
      assertEquals(c.reason(), result.fault(), c.toString());
    }
    assertArrayEquals(before, readHits(hits, 64).toArray(ValueLayout.JAVA_BYTE));
    assertArrayEquals(claimsFour, readHits(shortHits, 1).asSlice(0, 16).toArray(ValueLayout.JAVA_INT));
  }

  @Test
  void emptyRangeIsDoneWithNoHits() throws Exception {
    start(1);
    int input = upload(MemorySegment.ofArray(TEXT), ResourcePlacement.HOST_MAPPED);
    int hits = hitBuffer(4);
    assertTrue(run(new DfaStepArgs(input, TEXT.length, 0, dfa, 0, hits, 0, 0, 0)).isDone());
    assertEquals(0, HitBufferLayout.cursor(readHits(hits, 4)));
  }

  @Test
  void insidePackedSlotItFaultsAsMalformed() throws Exception {
    start(1);
    int[] args = PackedSlotCodec.encode(new PackedSlotCodec.PackedOp(Opcodes.DFA_STEP, new int[] {0, 0, 1}));
    TaskResult result = kernel.submit(Task.of(Opcodes.PACKED_SLOT, args)).get(10, TimeUnit.SECONDS);
    assertEquals(FaultReason.MALFORMED_PACKED_SLOT, result.fault());
  }

  @Test
  void manyConcurrentRangesShareOneHitBufferAndFindEveryMatch() throws Exception {
    start(2);
    byte[] text = new byte[1 << 16];
    SplittableRandom random = new SplittableRandom(3);
    byte[] alphabet = "hers ".getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < text.length; i++) {
      text[i] = alphabet[random.nextInt(alphabet.length)];
    }
    int input = upload(MemorySegment.ofArray(text), ResourcePlacement.HOST_MAPPED);
    List<Hit> expected = NaiveMatcher.findAll(PATTERNS, text, 1);
    long capacity = expected.size();
    int hits = hitBuffer(capacity);
    int range = 1000;
    int overlap = PATTERNS.maxLength() - 1;
    List<CompletableFuture<TaskResult>> results = new ArrayList<>();
    for (int owned = 0; owned < text.length; owned += range) {
      int from = Math.max(0, owned - overlap);
      int to = Math.min(text.length, owned + range);
      results.add(kernel.submit(Task.of(Opcodes.DFA_STEP,
          new DfaStepArgs(input, from, to - from, dfa, 0, hits, 1, from, owned - from).toArgs())));
    }
    for (CompletableFuture<TaskResult> result : results) {
      assertTrue(result.get(10, TimeUnit.SECONDS).isDone());
    }
    MemorySegment stored = readHits(hits, capacity);
    assertEquals(capacity, HitBufferLayout.cursor(stored));
    assertEquals(expected, sorted(HitBufferLayout.readAll(stored)));
  }

  private int countResource(long counters) {
    MemorySegment zeroed = Arena.ofAuto().allocate(MatchCountLayout.byteSize(counters), 8);
    MatchCountLayout.init(zeroed, counters);
    return upload(zeroed, ResourcePlacement.DEVICE);
  }

  private MemorySegment readCounts(int handle, long counters) {
    MemorySegment copy = Arena.ofAuto().allocate(MatchCountLayout.byteSize(counters), 8);
    kernel.readResource(handle, 0, copy);
    return copy;
  }

  /**
   * Ranges long enough to be scanned as interleaved lanes, at odd offsets (the CUDA lanes restart at
   * 16-byte boundaries), over text where nearly every byte ends a match: records hold exactly the
   * naive matcher's hits, and count mode adds exactly as many to each range's input id's counter.
   */
  @Test
  void countModeAddsExactlyTheHitsRecordModeAppends() throws Exception {
    start(2);
    PatternSet dense = PatternSet.fromArguments(List.of("h", "he", "e", "hehe", "eh", "s", "r"), false);
    DfaTable denseTable = AhoCorasickCompiler.compile(dense);
    int denseDfa = upload(denseTable.segment(), ResourcePlacement.DEVICE);
    byte[] text = new byte[40_011];
    SplittableRandom random = new SplittableRandom(5);
    byte[] alphabet = "hers".getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < text.length; i++) {
      text[i] = alphabet[random.nextInt(alphabet.length)];
    }
    int input = upload(MemorySegment.ofArray(text), ResourcePlacement.HOST_MAPPED);
    int overlap = dense.maxLength() - 1;
    long[] expected = new long[2];
    List<Hit> expectedHits = new ArrayList<>();
    List<DfaStepArgs> steps = new ArrayList<>();
    int range = 4093;
    for (int owned = 0, id = 0; owned < text.length; owned += range, id ^= 1) {
      int from = Math.max(0, owned - overlap);
      int to = Math.min(text.length, owned + range);
      steps.add(new DfaStepArgs(input, from, to - from, denseDfa, denseTable.startState(), 0, id, from, owned - from));
    }
    // Each range counts the matches ending in the bytes it owns, wherever they start.
    for (DfaStepArgs step : steps) {
      for (Hit hit : NaiveMatcher.findAll(dense, text, step.inputId())) {
        long end = hit.start() + dense.length(hit.patternId());
        if (end > step.baseOffset() + step.reportFrom() && end <= step.baseOffset() + step.length()) {
          expectedHits.add(hit);
          expected[step.inputId()]++;
        }
      }
    }
    assertTrue(expected[0] + expected[1] > text.length, "nearly every byte ends a match");
    int hits = hitBuffer(expectedHits.size());
    int counts = countResource(2);
    List<CompletableFuture<TaskResult>> results = new ArrayList<>();
    for (DfaStepArgs step : steps) {
      results.add(kernel.submit(Task.of(Opcodes.DFA_STEP, new DfaStepArgs(step.inputHandle(), step.inputOffset(),
          step.length(), step.dfaHandle(), step.startState(), hits, step.inputId(), step.baseOffset(), step.reportFrom())
          .toArgs())));
      results.add(kernel.submit(Task.of(Opcodes.DFA_STEP, new DfaStepArgs(step.inputHandle(), step.inputOffset(),
          step.length(), step.dfaHandle(), step.startState(), counts, step.inputId(), step.baseOffset(), step.reportFrom(),
          DfaStepArgs.MODE_COUNT).toArgs())));
    }
    for (CompletableFuture<TaskResult> result : results) {
      assertTrue(result.get(10, TimeUnit.SECONDS).isDone());
    }
    expectedHits.sort(null);
    assertEquals(expectedHits, sorted(HitBufferLayout.readAll(readHits(hits, expectedHits.size()))));
    MemorySegment counted = readCounts(counts, 2);
    assertEquals(expected[0], MatchCountLayout.counter(counted, 0));
    assertEquals(expected[1], MatchCountLayout.counter(counted, 1));
  }

  @Test
  void countModeFaultsOnACounterItDoesNotHoldOrAnUnknownMode() throws Exception {
    start(1);
    int input = upload(MemorySegment.ofArray(TEXT), ResourcePlacement.HOST_MAPPED);
    int counts = countResource(2);
    for (DfaStepArgs args : List.of(
        new DfaStepArgs(input, 0, TEXT.length, dfa, table.startState(), counts, 2, 0, 0, DfaStepArgs.MODE_COUNT),
        new DfaStepArgs(input, 0, TEXT.length, dfa, table.startState(), counts, 0, 0, 0, 2))) {
      assertEquals(FaultReason.RESOURCE_OUT_OF_RANGE, run(args).fault(), args.toString());
    }
    assertEquals(0, MatchCountLayout.counter(readCounts(counts, 2), 0));
    assertTrue(run(new DfaStepArgs(input, 0, TEXT.length, dfa, table.startState(), counts, 1, 0, 0,
        DfaStepArgs.MODE_COUNT)).isDone());
    assertEquals(NaiveMatcher.findAll(PATTERNS, TEXT, 0).size(), MatchCountLayout.counter(readCounts(counts, 2), 1));
  }
}

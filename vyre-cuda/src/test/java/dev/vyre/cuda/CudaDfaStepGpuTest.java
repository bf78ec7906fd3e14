package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.dfa.Hit;
import dev.vyre.runtime.dfa.HitBufferLayout;
import dev.vyre.runtime.dfa.PromotedDfaLayout;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.Words;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.ChunkPlanner;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.NaiveMatcher;
import dev.vyre.scan.PatternSet;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** DFA_STEP on the GPU finds exactly the hits of the naive all-matches matcher, chunk overlaps included. */
@Tag("gpu")
class CudaDfaStepGpuTest {

  /** Short and long ranges: a lane scans each from its start, crossing 16-byte load boundaries. */
  @Test
  void gpuDfaStepFindsEveryOverlappingMatchOnceAcrossChunks() throws Exception {
    for (int chunkBytes : new int[] {4093, 65_521, 1_000_003}) {
      findsEveryMatch(chunkBytes);
    }
  }

  /**
   * With the table promoted (each block scans from its copy in shared memory), DFA_STEP finds the same hits,
   * also while the promotion ends and starts again between batches; the kernel counts the tasks it scanned
   * with the copy.
   */
  @Test
  void aPromotedTableFindsEveryMatchTheTableFinds() throws Exception {
    findsEveryMatch(65_521, Promotion.THROUGHOUT);
    findsEveryMatch(4093, Promotion.TOGGLED);
  }

  private enum Promotion { NONE, THROUGHOUT, TOGGLED }

  private static void findsEveryMatch(int chunkBytes) throws Exception {
    findsEveryMatch(chunkBytes, Promotion.NONE);
  }

  private static void findsEveryMatch(int chunkBytes, Promotion promotion) throws Exception {
    List<String> words = List.of("he", "she", "his", "hers", "vyre", "error", "rror", "kernel");
    PatternSet patterns = PatternSet.fromArguments(words, false);
    DfaTable table = AhoCorasickCompiler.compile(patterns);
    SplittableRandom random = new SplittableRandom(42);
    StringBuilder text = new StringBuilder();
    while (text.length() < 3_000_000) {
      text.append(random.nextInt(4) == 0 ? words.get(random.nextInt(words.size())) : (char) ('a' + random.nextInt(26)));
    }
    byte[] input = text.toString().getBytes(StandardCharsets.US_ASCII);
    List<Hit> expected = NaiveMatcher.findAll(patterns, input, 7);
    int capacity = expected.size() + 16;
    // Under compute-sanitizer (scripts/gpu-check.sh) the kernel runs many times slower: the step gives it longer.
    Duration patience = Duration.ofSeconds(Long.getLong("vyre.test.patienceSeconds", 60));
    try (Megakernel kernel = Megakernel.builder().backend(new CudaBackend()).slots(4096).singlePriority(Priority.NORMAL)
            .stallTimeout(patience).bootstrap();
        Arena arena = Arena.ofConfined()) {
      int inputHandle = kernel.allocateResource(input.length, ResourcePlacement.HOST_MAPPED);
      kernel.resource(inputHandle).copyFrom(MemorySegment.ofArray(input));
      int dfaHandle = kernel.allocateResource(table.byteSize(), ResourcePlacement.DEVICE);
      kernel.writeResource(dfaHandle, 0, table.segment());
      int hitHandle = kernel.allocateResource(HitBufferLayout.byteSize(capacity), ResourcePlacement.DEVICE);
      MemorySegment header = arena.allocate(16, 8);
      Words.set(header, HitBufferLayout.CAPACITY_WORD, capacity);
      kernel.writeResource(hitHandle, 0, header);
      MemorySegment compact = ((PromotedDfaLayout.Compact) PromotedDfaLayout.compact(table.segment())).table();
      if (promotion != Promotion.NONE) {
        kernel.promoteDfaTable(dfaHandle, compact);
      }
      TaskBatch batch = new TaskBatch(promotion == Promotion.TOGGLED ? 64 : 1024);
      int batches = 0;
      for (ChunkPlanner.Chunk chunk : ChunkPlanner.of(input.length, chunkBytes, patterns.maxLength()).chunks()) {
        int[] args = new DfaStepArgs(inputHandle, chunk.readOffset(), chunk.readLength(), dfaHandle, table.startState(),
            hitHandle, 7, chunk.readOffset(), chunk.reportFrom()).toArgs();
        if (batch.size() == batch.capacity()) {
          kernel.publish(batch);
          batch.clear();
          if (promotion == Promotion.TOGGLED && ++batches % 2 == 1) {
            kernel.demoteDfaTable(dfaHandle);
          } else if (promotion == Promotion.TOGGLED) {
            kernel.promoteDfaTable(dfaHandle, compact);
          }
        }
        batch.add(0, Opcodes.DFA_STEP, args);
      }
      kernel.publish(batch);
      assertTrue(kernel.drain(patience), kernel.summary());
      assertEquals(0, kernel.stats().faults(), "no DFA_STEP faulted");
      if (promotion == Promotion.THROUGHOUT) {
        assertTrue(kernel.promotedTasks() > 0, "tasks scanned with the promoted copy: " + kernel.promotedTasks());
      }
      MemorySegment hits = arena.allocate(HitBufferLayout.byteSize(capacity), 8);
      kernel.readResource(hitHandle, 0, hits);
      long count = Integer.toUnsignedLong(Words.get(hits, HitBufferLayout.CURSOR_WORD));
      assertEquals(expected.size(), count, "hit count with chunks of " + chunkBytes);
      List<Hit> actual = new ArrayList<>();
      for (long i = 0; i < count; i++) {
        long start = Integer.toUnsignedLong(Words.get(hits, HitBufferLayout.recordWord(i, HitBufferLayout.START_LO_FIELD)))
            | (long) Words.get(hits, HitBufferLayout.recordWord(i, HitBufferLayout.START_HI_FIELD)) << 32;
        actual.add(new Hit(Words.get(hits, HitBufferLayout.recordWord(i, HitBufferLayout.INPUT_ID_FIELD)), start,
            Words.get(hits, HitBufferLayout.recordWord(i, HitBufferLayout.PATTERN_ID_FIELD))));
      }
      actual.sort(null);
      List<Hit> sorted = new ArrayList<>(expected);
      sorted.sort(null);
      assertEquals(sorted, actual, "hits with chunks of " + chunkBytes);
    }
  }
}

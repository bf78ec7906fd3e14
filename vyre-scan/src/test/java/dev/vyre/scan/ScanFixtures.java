package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.dfa.DfaStep;
import dev.vyre.runtime.dfa.Hit;
import dev.vyre.runtime.dfa.HitBufferLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Shared generators and a chunked scan driver for the scan tests. */
final class ScanFixtures {

  /** A pattern set and an input over the same small alphabet, so that matches are frequent. */
  record Case(List<byte[]> patterns, boolean caseInsensitive, byte[] input) {
    PatternSet patternSet() {
      return PatternSet.of(patterns, caseInsensitive, "test");
    }

    @Override
    public String toString() {
      List<String> shown = patterns.stream().map(p -> new String(p, StandardCharsets.ISO_8859_1)).toList();
      return "Case[patterns=" + shown + ", ci=" + caseInsensitive + ", input="
          + new String(input, StandardCharsets.ISO_8859_1) + "]";
    }
  }

  private ScanFixtures() {}

  /** Cases over {@code alphabet}; patterns 1..maxPatternLength bytes, inputs up to maxInput bytes. */
  static Arbitrary<Case> cases(byte[] alphabet, int maxPatternLength, int maxInput) {
    return cases(alphabet, alphabet, maxPatternLength, maxInput);
  }

  /** Cases with inputs of {@code minInput..maxInput} bytes and patterns of the given length range. */
  static Arbitrary<Case> cases(byte[] alphabet, int minPatternLength, int maxPatternLength, int minInput,
      int maxInput) {
    Arbitrary<Byte> symbol = Arbitraries.of(boxed(alphabet));
    Arbitrary<byte[]> pattern = symbol.list().ofMinSize(minPatternLength).ofMaxSize(maxPatternLength)
        .map(ScanFixtures::unboxed);
    return Combinators.combine(pattern.list().ofMinSize(1).ofMaxSize(12), Arbitraries.of(false, true),
        symbol.list().ofMinSize(minInput).ofMaxSize(maxInput).map(ScanFixtures::unboxed)).as(Case::new);
  }

  /** Cases whose patterns and inputs draw on different alphabets. */
  static Arbitrary<Case> cases(byte[] patternAlphabet, byte[] inputAlphabet, int maxPatternLength, int maxInput) {
    Arbitrary<byte[]> pattern = Arbitraries.of(boxed(patternAlphabet)).list().ofMinSize(1).ofMaxSize(maxPatternLength)
        .map(ScanFixtures::unboxed);
    return Combinators.combine(pattern.list().ofMinSize(1).ofMaxSize(12), Arbitraries.of(false, true),
        Arbitraries.of(boxed(inputAlphabet)).list().ofMaxSize(maxInput).map(ScanFixtures::unboxed)).as(Case::new);
  }

  /** A page-aligned copy of {@code source} (at least one byte) in {@code arena}, as a kernel's resource holds it. */
  static MemorySegment copy(Arena arena, MemorySegment source) {
    MemorySegment target = arena.allocate(Math.max(1, source.byteSize()), 4096);
    target.copyFrom(source);
    return target;
  }

  /** An empty hit buffer of {@code capacity} records in {@code arena}. */
  static MemorySegment hits(Arena arena, long capacity) {
    MemorySegment hits = arena.allocate(HitBufferLayout.byteSize(capacity), 4096);
    HitBufferLayout.init(hits, capacity);
    return hits;
  }

  static byte[] bytes(String ascii) {
    return ascii.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** Scans {@code input} in chunks as {@link ChunkPlanner} plans them and returns the sorted hits. */
  static List<Hit> scanChunked(PatternSet patterns, byte[] input, long chunkBytes, int inputId) {
    return scanPlans(patterns, input, List.of(ChunkPlanner.of(input.length, chunkBytes, patterns.maxLength())), inputId);
  }

  /** Scans {@code input} in the chunks of every plan and returns the sorted hits of them all. */
  static List<Hit> scanPlans(PatternSet patterns, byte[] input, List<ChunkPlanner> plans, int inputId) {
    DfaTable table = AhoCorasickCompiler.compile(patterns);
    long capacity = (long) input.length * patterns.size() + 1;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment in = copy(arena, MemorySegment.ofArray(input));
      MemorySegment dfa = copy(arena, table.segment());
      MemorySegment hits = hits(arena, capacity);
      for (ChunkPlanner plan : plans) {
        for (ChunkPlanner.Chunk chunk : plan.chunks()) {
          int state = DfaStep.run(in, chunk.readOffset(), chunk.readLength(), dfa, table.startState(), hits, inputId,
              chunk.readOffset(), chunk.reportFrom());
          assertTrue(state >= 0, "fault " + state + " on " + chunk);
        }
      }
      assertFalse(HitBufferLayout.overflowed(hits));
      return sorted(HitBufferLayout.readAll(hits));
    }
  }

  static List<Hit> sorted(List<Hit> hits) {
    List<Hit> copy = new ArrayList<>(hits);
    Collections.sort(copy);
    return copy;
  }

  private static Byte[] boxed(byte[] bytes) {
    Byte[] boxed = new Byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      boxed[i] = bytes[i];
    }
    return boxed;
  }

  private static byte[] unboxed(List<Byte> bytes) {
    byte[] out = new byte[bytes.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = bytes.get(i);
    }
    return out;
  }
}

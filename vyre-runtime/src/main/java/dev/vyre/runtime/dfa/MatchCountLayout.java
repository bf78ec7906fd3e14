package dev.vyre.runtime.dfa;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;

/**
 * Wire layout of a count resource, the output of DFA_STEP in count mode ({@link
 * DfaStepArgs#MODE_COUNT}): one u64 counter per input id, no records. Little-endian u32 words:
 *
 * <pre>
 * word 0  counters  counters the resource holds
 * word 1  reserved, 0
 * word 2  reserved, 0
 * word 3  reserved, 0
 * word 4 + 2 * i    counter i, low word  (u64, 8-byte aligned: an atomic add)
 * word 5 + 2 * i    counter i, high word
 * </pre>
 *
 * <p>A step in count mode adds the number of hits it would have appended in record mode to counter
 * {@code input_id}; a step adds it once, at its end, so dense matches cost no atomic each and
 * no record crosses the bus. The host reads back the counters of a whole scan in one copy.
 */
public final class MatchCountLayout {

  public static final int COUNTERS_WORD = 0;
  public static final int HEADER_WORDS = 4;
  public static final int COUNTER_WORDS = 2;

  private static final String FIX = "allocate the count resource with MatchCountLayout.byteSize(counters) and initialise"
      + " it with MatchCountLayout.init";

  private MatchCountLayout() {}

  /** Bytes needed for {@code counters} counters (a u32). */
  public static long byteSize(long counters) {
    return (HEADER_WORDS + counters * COUNTER_WORDS) * 4L;
  }

  /** Word index of counter {@code index}'s low word (even: the counter is 8-byte aligned). */
  public static long counterWord(long index) {
    return HEADER_WORDS + index * COUNTER_WORDS;
  }

  /** Zeroes the header and the counters and sets their number; the resource must be at least {@link #byteSize} bytes. */
  public static void init(MemorySegment counts, long counters) {
    if (!Unsigned.fitsU32(counters) || counts.byteSize() < byteSize(counters)) {
      throw ProtocolException.missingWord("count resource", counterWord(counters) - 1, counts.byteSize(), FIX);
    }
    counts.asSlice(0, byteSize(counters)).fill((byte) 0);
    Words.set(counts, COUNTERS_WORD, (int) counters);
  }

  public static long counters(MemorySegment counts) {
    return Unsigned.u32(Words.get(counts, COUNTERS_WORD));
  }

  /** Counter {@code index}, read after the steps that add to it finished. */
  public static long counter(MemorySegment counts, long index) {
    return Unsigned.u32(Words.get(counts, counterWord(index)))
        | (long) Words.get(counts, counterWord(index) + 1) << 32;
  }
}

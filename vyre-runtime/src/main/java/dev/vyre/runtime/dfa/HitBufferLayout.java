package dev.vyre.runtime.dfa;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Wire layout of a hit resource, the output of DFA_STEP. Little-endian u32 words:
 *
 * <pre>
 * word 0  cursor    number of hits ever appended, including ones that did not fit (atomic add)
 * word 1  capacity  records the buffer holds
 * word 2  reserved, 0
 * word 3  reserved, 0
 * word 4 + 4 * i    record i: [input_id, start_lo, start_hi, pattern_id]
 * </pre>
 *
 * <p>An appender claims index {@code i = atomicAdd(cursor, 1)} and writes record {@code i} only
 * when {@code i < capacity}; so {@code cursor > capacity} means hits were dropped, and the host
 * must see it ({@link #overflowed}) and rescan with a larger buffer or report it, never ignore it.
 * Record order is unspecified (appenders race). {@code start} is the absolute byte offset of the
 * match's first byte within input {@code input_id}.
 */
public final class HitBufferLayout {

  public static final int CURSOR_WORD = 0;
  public static final int CAPACITY_WORD = 1;
  public static final int HEADER_WORDS = 4;
  public static final int RECORD_WORDS = 4;
  public static final int INPUT_ID_FIELD = 0;
  public static final int START_LO_FIELD = 1;
  public static final int START_HI_FIELD = 2;
  public static final int PATTERN_ID_FIELD = 3;

  private static final String FIX = "allocate the hit buffer with HitBufferLayout.byteSize(capacity) and initialise it "
      + "with HitBufferLayout.init";

  private HitBufferLayout() {}

  /** Bytes needed for {@code capacity} records (a u32). */
  public static long byteSize(long capacity) {
    return (HEADER_WORDS + capacity * RECORD_WORDS) * 4L;
  }

  /** Word index of field {@code field} of record {@code index}. */
  public static long recordWord(long index, int field) {
    return HEADER_WORDS + index * RECORD_WORDS + field;
  }

  /** Zeroes the header and sets the capacity; the buffer must be at least {@link #byteSize} bytes. */
  public static void init(MemorySegment hits, long capacity) {
    if (!Unsigned.fitsU32(capacity) || hits.byteSize() < byteSize(capacity)) {
      throw ProtocolException.missingWord("hit buffer", recordWord(capacity, 0) - 1, hits.byteSize(), FIX);
    }
    hits.asSlice(0, HEADER_WORDS * 4L).fill((byte) 0);
    Words.set(hits, CAPACITY_WORD, (int) capacity);
  }

  /** Empties the buffer for reuse (cursor 0), keeping its capacity. */
  public static void reset(MemorySegment hits) {
    Words.setRelease(hits, CURSOR_WORD, 0);
  }

  /** Checks the header against the buffer's length. */
  public static void validate(MemorySegment hits, String buffer) {
    long byteLen = hits.byteSize();
    if (byteLen % 4 != 0) {
      throw ProtocolException.misalignedByteLength(buffer, byteLen, FIX);
    }
    if (byteLen < HEADER_WORDS * 4L) {
      throw ProtocolException.missingWord(buffer, HEADER_WORDS - 1, byteLen, FIX);
    }
    long capacity = capacity(hits);
    if (byteSize(capacity) > byteLen) {
      throw ProtocolException.missingWord(buffer, recordWord(capacity, 0) - 1, byteLen, FIX);
    }
    for (int word = CAPACITY_WORD + 1; word < HEADER_WORDS; word++) {
      if (Words.get(hits, word) != 0) {
        throw ProtocolException.invalidWord(buffer, word, Unsigned.u32(Words.get(hits, word)), byteLen,
            "reserved header words must be 0", FIX);
      }
    }
  }

  /** Hits appended so far, counting dropped ones; read with acquire after the step completed. */
  public static long cursor(MemorySegment hits) {
    return Unsigned.u32(Words.getAcquire(hits, CURSOR_WORD));
  }

  public static long capacity(MemorySegment hits) {
    return Unsigned.u32(Words.get(hits, CAPACITY_WORD));
  }

  /** True when hits were dropped: the cursor passed the capacity. */
  public static boolean overflowed(MemorySegment hits) {
    return cursor(hits) > capacity(hits);
  }

  /** Records actually stored: min(cursor, capacity). */
  public static long storedCount(MemorySegment hits) {
    return Math.min(cursor(hits), capacity(hits));
  }

  public static Hit read(MemorySegment hits, long index) {
    long start = Unsigned.u32(Words.get(hits, recordWord(index, START_LO_FIELD)))
        | (long) Words.get(hits, recordWord(index, START_HI_FIELD)) << 32;
    return new Hit(Words.get(hits, recordWord(index, INPUT_ID_FIELD)), start,
        Words.get(hits, recordWord(index, PATTERN_ID_FIELD)));
  }

  /** The stored records, in buffer order. */
  public static List<Hit> readAll(MemorySegment hits) {
    long count = storedCount(hits);
    List<Hit> result = new ArrayList<>((int) count);
    for (long i = 0; i < count; i++) {
      result.add(read(hits, i));
    }
    return result;
  }
}

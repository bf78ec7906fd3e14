package dev.vyre.runtime.wire;

import java.lang.foreign.MemorySegment;

/**
 * The express lane: a second copy of a ring slot, stamped so that a kernel can take a task in the
 * same read that finds it, instead of one read for the doorbell and a second for the slot
 * (docs/PROTOCOL.md, "The express lane"). It is a transport next to the ring, not a change to it:
 * the ring slot is written as before, first, and the kernel stores the final status there.
 *
 * <p>Ring slot {@code s} has 128 bytes here: eight 16-byte lines, line {@code i} holding slot
 * words {@code 2i} and {@code 2i + 1}, each followed by the ticket's stamp: {@code (word, stamp,
 * word, stamp)}. PCIe and the CPU guarantee that an aligned 8-byte store or read is never torn
 * (NCCL's LL protocol rests on the same guarantee), so a reader that sees the expected stamp in all
 * sixteen 8-byte units has read the whole slot as its publisher wrote it, in any order and with no
 * second read. A slot may be read in any number of pieces; a torn one just fails the check.
 *
 * <p>The stamp of a partition ticket {@code t} is {@code t mod (2^32 - 1) + 1}: never 0, which
 * marks a line that holds no task, and different for the tickets {@code length} apart that share
 * a slot. The host clears a slot's first unit when it retires the ticket, so a line older than the
 * ring can never carry the stamp of a later ticket.
 */
public final class ExpressLayout {

  public static final int LINE_BYTES = 16;
  public static final int LINES_PER_SLOT = SlotLayout.SLOT_WORDS / 2;
  public static final int SLOT_BYTES = LINES_PER_SLOT * LINE_BYTES;
  /** Stamps count tickets modulo this, plus one, so that 0 never is one. */
  private static final long STAMP_MODULUS = 0xFFFF_FFFFL;

  private ExpressLayout() {}

  public static long byteLength(int slots) {
    return (long) slots * SLOT_BYTES;
  }

  /** The stamp of partition ticket (sequence number) {@code sequence}. */
  public static int stamp(long sequence) {
    return (int) (Long.remainderUnsigned(sequence, STAMP_MODULUS) + 1);
  }

  /** Index, in 8-byte units, of the unit that holds slot word {@code word} of slot {@code slot}. */
  private static long unit(int slot, int word) {
    return (long) slot * SlotLayout.SLOT_WORDS + word;
  }

  /**
   * Copies ring slot {@code slot} into its express slot, stamped with {@code stamp}: every unit
   * with one 8-byte store. The caller has written the ring slot first and fenced.
   */
  public static void write(MemorySegment express, MemorySegment ring, int slot, int stamp) {
    long stampBits = (long) stamp << 32;
    long base = SlotLayout.slotBase(slot);
    for (int w = 0; w < SlotLayout.SLOT_WORDS; w++) {
      Words.setLongOpaque(express, 2 * unit(slot, w), stampBits | Integer.toUnsignedLong(Words.get(ring, base + w)));
    }
  }

  /** Marks slot {@code slot} as holding no task (its first unit's stamp becomes 0). */
  public static void clear(MemorySegment express, int slot) {
    Words.setLongOpaque(express, 2 * unit(slot, 0), 0L);
  }

  /** Whether slot {@code slot} holds a copy at all (its first unit's stamp is not 0): cheaper than {@link #read}'s stamp. */
  public static boolean holdsCopy(MemorySegment express, int slot) {
    return Words.getLongOpaque(express, 2 * unit(slot, 0)) >>> 32 != 0;
  }

  /**
   * Reads slot {@code slot} into {@code words[0..16)} if every unit carries {@code stamp}; false
   * (with {@code words} partly overwritten) if any does not.
   */
  public static boolean read(MemorySegment express, int slot, int stamp, int[] words) {
    for (int w = 0; w < SlotLayout.SLOT_WORDS; w++) {
      long value = Words.getLongOpaque(express, 2 * unit(slot, w));
      if ((int) (value >>> 32) != stamp) {
        return false;
      }
      words[w] = (int) value;
    }
    return true;
  }
}

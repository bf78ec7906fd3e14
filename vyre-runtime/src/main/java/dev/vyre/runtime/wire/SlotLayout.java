package dev.vyre.runtime.wire;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;

/**
 * Layout of one 64-byte ring slot (docs/PROTOCOL.md, "Slot layout"): status, opcode, tenant,
 * priority and 12 argument words. Slot {@code s} occupies ring words {@code [16s, 16s + 16)}.
 */
public final class SlotLayout {

  public static final int SLOT_WORDS = 16;
  public static final int SLOT_BYTES = SLOT_WORDS * 4;
  public static final int STATUS_WORD = 0;
  public static final int OPCODE_WORD = 1;
  public static final int TENANT_WORD = 2;
  /**
   * Priority level 0..4 as written by the host. Once a slot has FAULTed, this word holds the
   * {@link FaultReason} code instead: the priority was consumed when the slot was claimed.
   */
  public static final int PRIORITY_WORD = 3;
  public static final int ARG0_WORD = 4;
  public static final int ARGS_PER_SLOT = 12;

  public static final int STATUS_EMPTY = 0;
  public static final int STATUS_PUBLISHED = 1;
  public static final int STATUS_CLAIMED = 2;
  public static final int STATUS_DONE = 3;
  public static final int STATUS_WAIT_IO = 4;
  public static final int STATUS_YIELD = 5;
  public static final int STATUS_REQUEUE = 6;
  public static final int STATUS_FAULT = 7;

  /** ⌊(2^32−1)/16⌋: the most slots whose word indices fit a u32. */
  public static final long MAX_RING_SLOTS = 268_435_455L;
  /** The most slots the encoders accept. */
  public static final int MAX_ENCODED_RING_SLOTS = 1_048_576;

  private SlotLayout() {}

  /** First ring word of slot {@code slot}. */
  public static long slotBase(long slot) {
    return slot * SLOT_WORDS;
  }

  public static long statusWord(long slot) {
    return slot * SLOT_WORDS + STATUS_WORD;
  }

  public static long argWord(long slot, int arg) {
    return slot * SLOT_WORDS + ARG0_WORD + arg;
  }

  /** Refuses more argument words than a slot holds (vyre's exact text). */
  public static void checkArgCount(int argCount) {
    if (argCount > ARGS_PER_SLOT) {
      throw PipelineException.invalidArgument("submission", "too many args for one slot; 12 u32 args max per slot", "pass at most 12 args");
    }
  }

  /** Ring byte length for {@code slots} slots, or -1 when it exceeds {@link #MAX_RING_SLOTS}. */
  public static long ringByteLength(long slots) {
    return slots < 0 || slots > MAX_RING_SLOTS ? -1 : slots * SLOT_BYTES;
  }

  /**
   * The checked ring word index of {@code slotLocalWord} in slot {@code slot} (vyre's
   * {@code try_slot_word_index}); refuses a local word outside the slot and a slot whose base word
   * overflows u32.
   */
  public static long wordIndex(long slot, int slotLocalWord) {
    if (slotLocalWord < 0 || slotLocalWord >= SLOT_WORDS) {
      throw ProtocolException.byteLengthOverflow("slot",
          "slot-local word is outside SLOT_WORDS; keep protocol constants within the slot layout");
    }
    if (slot < 0 || slot > MAX_RING_SLOTS) {
      throw ProtocolException.byteLengthOverflow("ring",
          "slot word base overflows the u32 protocol word ABI; shard the megakernel ring before host access");
    }
    return slot * SLOT_WORDS + slotLocalWord;
  }

  /**
   * vyre's {@code encode_empty_ring}: an all-EMPTY ring of {@code slots} slots (zero slots give an
   * empty buffer). Refuses more than {@link #MAX_ENCODED_RING_SLOTS}.
   */
  public static byte[] encodeEmptyRing(long slots) {
    checkEncodable(slots);
    return new byte[(int) ringByteLength(slots)];
  }

  /** Refuses a slot count the encoders will not materialize. */
  static void checkEncodable(long slots) {
    if (slots < 0 || slots > MAX_ENCODED_RING_SLOTS) {
      throw PipelineException.invalidArgument("submission", "slot_count " + slots + " exceeds the megakernel allocation cap of "
          + MAX_ENCODED_RING_SLOTS + " slots", "split the dispatch into smaller ring shards before encoding");
    }
  }

  /** The number of slots in a ring buffer, rejecting a length that is not a whole number of slots. */
  public static long slotCount(long ringByteLength) {
    if (ringByteLength % SLOT_BYTES != 0) {
      throw PipelineException.invalidArgument("submission",
          "ring buffer byte length " + ringByteLength + " is not an exact multiple of SLOT_WORDS * 4",
          "rebuild it with SlotLayout.encodeEmptyRing or allocate slot_count * 64 bytes");
    }
    return ringByteLength / SLOT_BYTES;
  }
}

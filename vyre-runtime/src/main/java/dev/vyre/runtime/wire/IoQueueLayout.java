package dev.vyre.runtime.wire;

import dev.vyre.driver.error.PipelineException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Layout of the IO queue (docs/PROTOCOL.md, "IO queue layout"): up to 64 request slots of 8 words
 * through which the kernel asks the host for DMA reads.
 */
public final class IoQueueLayout {

  public static final int SLOT_WORDS = 8;
  public static final int SLOT_BYTES = SLOT_WORDS * 4;
  public static final int IO_SLOT_COUNT = 64;
  public static final int OP_TYPE = 0;
  public static final int SRC_HANDLE = 1;
  public static final int DST_HANDLE = 2;
  public static final int OFFSET_LO = 3;
  public static final int OFFSET_HI = 4;
  public static final int BYTE_COUNT = 5;
  public static final int STATUS = 6;
  public static final int TAG = 7;

  public static final int OP_READ = 0x01;
  public static final int OP_WRITE = 0x02;
  public static final int OP_FENCE = 0x03;
  public static final int STATUS_OK = 0x10;
  public static final int STATUS_ERROR = 0x11;

  /** A PUBLISHED request as the host sees it. */
  public record IoRequest(int slot, int opType, long src, long dst, long offset, long byteCount, long tag) {}

  /** The host's verdict on one CLAIMED request. */
  public record Completion(int slot, boolean success) {}

  /** A request as its submitter sees it once the host has taken it: the destination (mapped slot), size and tag. */
  public record IoCompletion(int slot, long mappedSlot, long byteCount, long tag) {}

  private IoQueueLayout() {}

  public static long byteLength(int slots) {
    return (long) slots * SLOT_BYTES;
  }

  public static long word(int slot, int field) {
    return (long) slot * SLOT_WORDS + field;
  }

  /** An all-EMPTY queue of 1..64 slots. */
  public static byte[] encodeEmpty(int slots) {
    if (slots < 1 || slots > IO_SLOT_COUNT) {
      throw PipelineException.invalidArgument("submission", "io_queue of " + slots + " slots is empty or exceeds the compiled IO poll window of 64 slots",
          "use between 1 and 64 IO slots");
    }
    return new byte[(int) byteLength(slots)];
  }

  /** vyre's {@code validate_io_queue_bytes}: the number of slots in a well-formed queue buffer. */
  public static int validate(MemorySegment queue) {
    long len = queue.byteSize();
    if (len % 4 != 0) {
      throw PipelineException.backend("io_queue has " + len + " bytes, which is not 4-byte aligned. Fix: pass a whole u32 queue buffer.");
    }
    if (len % SLOT_BYTES != 0) {
      throw PipelineException.backend("io_queue has " + len + " bytes, which is not a multiple of slot size " + SLOT_BYTES
          + ". Fix: pass whole IO slots.");
    }
    if (len / SLOT_BYTES > IO_SLOT_COUNT) {
      throw PipelineException.invalidArgument("submission", "io_queue byte view of " + len / SLOT_BYTES
          + " slots exceeds the compiled IO poll window of 64 slots", "split the queue or rebuild the megakernel with a larger IO_SLOT_COUNT");
    }
    return (int) (len / SLOT_BYTES);
  }

  /**
   * vyre's {@code submit_dma_read} (and {@code publish_slot}, which passes source 0): writes a READ
   * request at offset 0 into an EMPTY slot, then stores PUBLISHED with release semantics.
   */
  public static void submitRead(MemorySegment queue, int slot, int src, int dst, int byteCount, int tag) {
    int slots = validate(queue);
    if (slot < 0 || slot >= slots) {
      throw PipelineException.invalidArgument("submission", "io_queue slot " + slot + " exceeds the queue's " + slots + " slots",
          "enlarge the queue or submit into a valid slot id");
    }
    if (Words.getAcquire(queue, word(slot, STATUS)) != SlotLayout.STATUS_EMPTY) {
      throw PipelineException.busy("submission", "io_queue slot " + slot + " still in flight",
          "wait for completion before submitting a new request");
    }
    publishRead(queue, slot, src, dst, 0, byteCount, tag);
  }

  /**
   * Writes a READ request of {@code byteCount} bytes at {@code offset} into slot {@code slot},
   * which the caller owns, then stores PUBLISHED with release semantics. Unchecked and
   * allocation-free: the kernel side of a task's read (docs/PROTOCOL.md, "Reads a task asks for").
   */
  public static void publishRead(MemorySegment queue, int slot, int src, int dst, long offset, int byteCount, int tag) {
    Words.set(queue, word(slot, OP_TYPE), OP_READ);
    Words.set(queue, word(slot, SRC_HANDLE), src);
    Words.set(queue, word(slot, DST_HANDLE), dst);
    Words.set(queue, word(slot, OFFSET_LO), (int) offset);
    Words.set(queue, word(slot, OFFSET_HI), (int) (offset >>> 32));
    Words.set(queue, word(slot, BYTE_COUNT), byteCount);
    Words.set(queue, word(slot, TAG), tag);
    Words.setRelease(queue, word(slot, STATUS), SlotLayout.STATUS_PUBLISHED);
  }

  /** The submitter's view of a slot: empty for a bad slot id or a recycled (EMPTY) slot. */
  public static Optional<IoCompletion> completion(MemorySegment queue, int slot) {
    int slots = validate(queue);
    if (slot < 0 || slot >= slots || Words.getAcquire(queue, word(slot, STATUS)) == SlotLayout.STATUS_EMPTY) {
      return Optional.empty();
    }
    return Optional.of(new IoCompletion(slot, u32(queue, slot, DST_HANDLE), u32(queue, slot, BYTE_COUNT), u32(queue, slot, TAG)));
  }

  /** Whether the kernel has recycled the slot to EMPTY; false for a bad slot id. */
  public static boolean isRecycled(MemorySegment queue, int slot) {
    int slots = validate(queue);
    return slot >= 0 && slot < slots && Words.getAcquire(queue, word(slot, STATUS)) == SlotLayout.STATUS_EMPTY;
  }

  /** Every PUBLISHED request (no mutation). */
  public static List<IoRequest> poll(MemorySegment queue) {
    return collect(queue, false);
  }

  /** Every PUBLISHED request, each moved to CLAIMED first; a second claim returns nothing. */
  public static List<IoRequest> claim(MemorySegment queue) {
    return collect(queue, true);
  }

  private static List<IoRequest> collect(MemorySegment queue, boolean claim) {
    int slots = validate(queue);
    List<IoRequest> requests = new ArrayList<>();
    for (int s = 0; s < slots; s++) {
      if (Words.getAcquire(queue, word(s, STATUS)) != SlotLayout.STATUS_PUBLISHED) {
        continue;
      }
      if (claim) {
        Words.setRelease(queue, word(s, STATUS), SlotLayout.STATUS_CLAIMED);
      }
      requests.add(new IoRequest(s, Words.get(queue, word(s, OP_TYPE)), u32(queue, s, SRC_HANDLE), u32(queue, s, DST_HANDLE),
          u32(queue, s, OFFSET_HI) << 32 | u32(queue, s, OFFSET_LO), u32(queue, s, BYTE_COUNT), u32(queue, s, TAG)));
    }
    return requests;
  }

  /**
   * vyre's {@code complete_io_requests_batch}: sets each CLAIMED request to OK or ERROR. Validates
   * every slot first; on error nothing changes. Only status words are written.
   */
  public static void complete(MemorySegment queue, List<Completion> completions) {
    int count = validate(queue);
    for (Completion completion : completions) {
      int slot = completion.slot();
      if (slot < 0 || slot >= count) {
        throw PipelineException.invalidArgument("submission", "io_queue completion slot " + slot + " exceeds queue length " + count,
            "complete a valid slot id");
      }
      if (Words.getAcquire(queue, word(slot, STATUS)) != SlotLayout.STATUS_CLAIMED) {
        throw PipelineException.invalidArgument("submission", "io_queue completion requires a CLAIMED request (slot " + slot + ")",
            "claim the request (IoQueueLayout.claim) before completing it so the same DMA is not completed without ownership");
      }
    }
    for (Completion completion : completions) {
      Words.setRelease(queue, word(completion.slot(), STATUS), completion.success() ? STATUS_OK : STATUS_ERROR);
    }
  }

  private static long u32(MemorySegment queue, int slot, int field) {
    return Integer.toUnsignedLong(Words.get(queue, word(slot, field)));
  }
}

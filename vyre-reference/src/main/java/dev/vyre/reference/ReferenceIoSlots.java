package dev.vyre.reference;

import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The kernel's side of the IO queue (docs/PROTOCOL.md, "Reads a task asks for"), as the CUDA
 * kernel's {@code vyre_io_read/status/release} do it: which task owns an IO slot is kept apart from
 * the queue (on CUDA in device memory, since atomics on mapped host memory are not allowed), so
 * the owner alone writes a request and PUBLISHED, the host pump CLAIMED and then OK or ERROR, and
 * the owner EMPTY before it lets the slot go.
 */
final class ReferenceIoSlots {

  private final MemorySegment queue;
  private final AtomicIntegerArray owned = new AtomicIntegerArray(IoQueueLayout.IO_SLOT_COUNT);

  ReferenceIoSlots(MemorySegment queue) {
    this.queue = queue;
  }

  /** Takes a free IO slot and publishes the read in it; -1 when all are taken. */
  int take(int source, int destination, long offset, int byteCount, int tag) {
    for (int slot = 0; slot < IoQueueLayout.IO_SLOT_COUNT; slot++) {
      if (owned.get(slot) == 0 && owned.compareAndSet(slot, 0, 1)) {
        IoQueueLayout.publishRead(queue, slot, source, destination, offset, byteCount, tag);
        return slot;
      }
    }
    return -1;
  }

  int status(int slot) {
    return Words.getAcquire(queue, IoQueueLayout.word(checked(slot), IoQueueLayout.STATUS));
  }

  void release(int slot) {
    Words.setRelease(queue, IoQueueLayout.word(checked(slot), IoQueueLayout.STATUS), SlotLayout.STATUS_EMPTY);
    owned.set(slot, 0);
  }

  private static int checked(int slot) {
    if (slot < 0 || slot >= IoQueueLayout.IO_SLOT_COUNT) {
      throw new IllegalArgumentException("IO slot " + slot + " is not 0.." + (IoQueueLayout.IO_SLOT_COUNT - 1));
    }
    return slot;
  }
}

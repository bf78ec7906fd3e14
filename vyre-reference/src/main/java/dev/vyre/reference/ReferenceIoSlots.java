package dev.vyre.reference;

import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The kernel's side of the IO queue (docs/PROTOCOL.md, "Reads a task asks for"), as the CUDA
 * kernel's {@code vyre_io_read/status/release} do it: which task owns an IO slot is kept apart from
 * the queue (on CUDA in device memory, since atomics on mapped host memory are not allowed), so
 * the owner alone writes a request and PUBLISHED, the host pump CLAIMED and then OK or ERROR, and
 * the owner EMPTY before it lets the slot go. Each tenant's reads in flight are held to its read
 * quota (docs/PROTOCOL.md, "Tenant quotas").
 */
final class ReferenceIoSlots {

  /** What {@link #take} answers for a read larger than its tenant's read quota: the task faults. */
  static final int OVER_QUOTA = -2;

  private final MemorySegment queue;
  private final MemorySegment control;
  /** The owning task's tenant + 1 for each IO slot, 0 while the slot is free. */
  private final AtomicIntegerArray owner = new AtomicIntegerArray(IoQueueLayout.IO_SLOT_COUNT);
  /** The bytes each IO slot's read counts against its tenant; written and read by the slot's owner only. */
  private final int[] slotBytes = new int[IoQueueLayout.IO_SLOT_COUNT];
  /** Bytes each tenant's reads have in flight, from take to release. */
  private final AtomicLongArray tenantBytes = new AtomicLongArray(ControlLayout.MAX_TENANTS);

  ReferenceIoSlots(MemorySegment queue, MemorySegment control) {
    this.queue = queue;
    this.control = control;
  }

  /**
   * Takes a free IO slot and publishes the read in it for a task of {@code tenant}; -1 when all are
   * taken or the read does not fit its tenant's read quota now (the task yields and asks again),
   * {@link #OVER_QUOTA} when it never can.
   */
  int take(int tenant, int source, int destination, long offset, int byteCount, int tag) {
    long bytes = Integer.toUnsignedLong(byteCount);
    int quotaWord = Words.getAcquire(control, ControlLayout.tenantQuotaWord(tenant));
    long quota = Integer.toUnsignedLong(quotaWord);
    boolean bounded = quotaWord != ControlLayout.NO_READ_QUOTA;
    if (bounded && bytes > quota) {
      countRefusal();
      return OVER_QUOTA;
    }
    // Counted even without a bound, so that a quota set while reads are in flight sees them.
    long before = tenantBytes.getAndAdd(tenant, bytes);
    if (bounded && before + bytes > quota) {
      tenantBytes.addAndGet(tenant, -bytes);
      countRefusal();
      return -1;
    }
    for (int slot = 0; slot < IoQueueLayout.IO_SLOT_COUNT; slot++) {
      if (owner.get(slot) == 0 && owner.compareAndSet(slot, 0, tenant + 1)) {
        slotBytes[slot] = byteCount;
        IoQueueLayout.publishRead(queue, slot, source, destination, offset, byteCount, tag);
        return slot;
      }
    }
    tenantBytes.addAndGet(tenant, -bytes);
    return -1;
  }

  private void countRefusal() {
    Words.getAndAdd(control, ControlLayout.TENANT_QUOTA_REFUSALS, 1);
  }

  int status(int slot) {
    return Words.getAcquire(queue, IoQueueLayout.word(checked(slot), IoQueueLayout.STATUS));
  }

  void release(int slot) {
    long bytes = Integer.toUnsignedLong(slotBytes[checked(slot)]);
    Words.setRelease(queue, IoQueueLayout.word(slot, IoQueueLayout.STATUS), SlotLayout.STATUS_EMPTY);
    int tenant = owner.getAndSet(slot, 0) - 1;
    if (tenant >= 0) {
      tenantBytes.addAndGet(tenant, -bytes);
    }
  }

  private static int checked(int slot) {
    if (slot < 0 || slot >= IoQueueLayout.IO_SLOT_COUNT) {
      throw new IllegalArgumentException("IO slot " + slot + " is not 0.." + (IoQueueLayout.IO_SLOT_COUNT - 1));
    }
    return slot;
  }
}

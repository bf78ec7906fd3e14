package dev.vyre.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.wire.DeviceStateLayout;
import dev.vyre.driver.error.InputException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A kernel's promoted DFA table (megakernel/dfa.cu; docs/POLICY.md, "Promotion"): its compact copy in device
 * memory and the promotion record in the device state that names it. Each block loads the copy into its
 * shared memory when a task first needs it. Two buffers take turns, so a block still loading the previous
 * copy reads a buffer the host is not writing; the record's sequence (odd while it is rewritten) tells a
 * block when its copy is stale. Callers hold the session's lock and make the context current.
 */
final class PromotedTables {

  private final CudaDriver driver;
  private final KernelDeviceState state;
  private final int capacity;
  private final long[] buffers = new long[2];
  private int next;
  private int sequence;
  private int promoted = -1;

  /**
   * {@code capacity}: the bytes of a compact table each block's shared memory holds (0: launched without). Called
   * before the launch, so that both buffers exist when the kernel starts: compute-sanitizer's memcheck checks a
   * kernel's reads against the allocations made before its launch (docs/PROTOCOL.md, "Resources allocated before
   * the launch").
   */
  PromotedTables(CudaDriver driver, SessionMemory allocate, KernelDeviceState state, int capacity) {
    this.driver = driver;
    this.state = state;
    this.capacity = capacity;
    if (capacity > 0) {
      buffers[0] = allocate.device(capacity, false);
      buffers[1] = allocate.device(capacity, false);
    }
  }

  int capacity() {
    return capacity;
  }

  /** The promoted table's resource handle, or -1. */
  int promoted() {
    return promoted;
  }

  /** DFA_STEP tasks on the table at {@code handle} scan with {@code compact} from now on, replacing any other. */
  void promote(int handle, MemorySegment compact) {
    if (compact.byteSize() > capacity) {
      throw InputException.of("promoted DFA table", compact.byteSize() + " bytes, and the kernel's blocks hold "
          + capacity + (capacity == 0 ? " (launched with -Dvyre.cuda.promotion=false)" : ""),
          "promote a smaller table, or launch the kernel with promotion on");
    }
    long buffer = buffers[next];
    next ^= 1;
    driver.copyToDevice(buffer, compact, compact.byteSize());
    writeRecord(handle + 1, buffer);
    promoted = handle;
  }

  /** Stops using the table at {@code handle} promoted (nothing when another is, or none). */
  void demote(int handle) {
    if (handle == promoted) {
      writeRecord(0, 0L);
      promoted = -1;
    }
  }

  /** DFA_STEP tasks the kernel scanned with a block's copy so far. */
  long tasks() {
    try (Arena scratch = Arena.ofConfined()) {
      MemorySegment count = scratch.allocate(8, 8);
      driver.copyToHost(count, state.address() + DeviceStateLayout.PROMOTED_TASKS_OFFSET, 8);
      return count.get(JAVA_LONG_UNALIGNED, 0);
    }
  }

  private void writeRecord(int handlePlusOne, long table) {
    state.writeWord(DeviceStateLayout.PROMOTION_OFFSET, ++sequence);
    try (Arena scratch = Arena.ofConfined()) {
      MemorySegment record = scratch.allocate(12);
      record.set(JAVA_INT_UNALIGNED, 0, handlePlusOne);
      record.set(JAVA_LONG_UNALIGNED, 4, table);
      state.write(DeviceStateLayout.PROMOTION_OFFSET + 4, record);
    }
    state.writeWord(DeviceStateLayout.PROMOTION_OFFSET, ++sequence);
  }
}

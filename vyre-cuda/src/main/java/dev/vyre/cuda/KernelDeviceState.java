package dev.vyre.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.wire.DeviceStateLayout;
import dev.vyre.cuda.wire.TraceLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * The host's side of the kernel's device state ({@link DeviceStateLayout}): the words it writes
 * while the kernel runs and the trace it reads. Copies go on the legacy stream, which runs beside
 * the kernel's non-blocking stream. Callers hold the session's lock and make the context current.
 */
final class KernelDeviceState {

  private final CudaDriver driver;
  private final long address;

  KernelDeviceState(CudaDriver driver, long address) {
    this.driver = driver;
    this.address = address;
  }

  long address() {
    return address;
  }

  /** Sets the word at {@code offset}; complete when this returns. */
  void writeWord(int offset, int value) {
    try (Arena scratch = Arena.ofConfined()) {
      MemorySegment word = scratch.allocate(JAVA_INT);
      word.set(JAVA_INT, 0, value);
      write(offset, word);
    }
  }

  /** Copies {@code bytes} to {@code offset}, after every earlier write (one stream). */
  void write(int offset, MemorySegment bytes) {
    driver.copyToDevice(address + offset, bytes, bytes.byteSize());
  }

  /**
   * Mean µs per task from doorbell seen to claimed, claimed to slot read and run, run to counters
   * added, counters to status stored, and the scout's mean poll period, since the last reset.
   */
  Map<String, Double> trace(boolean reset) {
    try (Arena scratch = Arena.ofConfined()) {
      MemorySegment copy = scratch.allocate(TraceLayout.BYTES, 8);
      driver.copyToHost(copy, address + DeviceStateLayout.TRACE_OFFSET, TraceLayout.BYTES);
      Map<String, Double> trace = TraceLayout.summary(copy);
      if (reset) {
        // All but trace_seen, which the scout keeps current; by a copy of zeroed scratch, not a memset, which
        // is a kernel that the running kernel may leave no room for (SessionMemory.zero).
        write(DeviceStateLayout.TRACE_OFFSET + TraceLayout.STORED_OFFSET,
            scratch.allocate(TraceLayout.BYTES - TraceLayout.STORED_OFFSET, 8));
      }
      return trace;
    }
  }
}

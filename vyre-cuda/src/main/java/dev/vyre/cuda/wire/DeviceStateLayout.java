package dev.vyre.cuda.wire;

/**
 * The kernel's state in device memory, the C struct {@code VyreDeviceState} (megakernel/memory.cu),
 * as far as the host touches it: it allocates and zeroes {@link #BYTES}, sets {@code abort} to trap
 * every warp, {@code active_blocks} to shed worker blocks and the promotion record, and copies the trace block
 * ({@link TraceLayout}) out. The rest is the kernel's own.
 * The kernel checks the size against {@link #BYTES}; the offsets are checked with {@code offsetof}
 * by the nvcc layout check in KernelSourceTest (NVRTC has no offsetof).
 */
public final class DeviceStateLayout {

  /** {@code unsigned abort}: the second word of the struct's second 128-byte line, after {@code wake}. */
  public static final int ABORT_OFFSET = 132;
  /** {@code unsigned active_blocks}: the sixth word of that line; blocks at or past it claim nothing (0: every block claims). */
  public static final int ACTIVE_BLOCKS_OFFSET = 148;
  /** sizeof(VyreDeviceState). */
  public static final int BYTES = 19_456;
  /** The trace block is the struct's tail ({@code trace_seen} onwards). */
  public static final int TRACE_OFFSET = BYTES - TraceLayout.BYTES;
  /**
   * The promotion record (megakernel/dfa.cu): {@code unsigned promoted_sequence} (odd while the host rewrites
   * the record), {@code unsigned promoted_handle} (the promoted table's resource handle + 1; 0, as zeroed, when
   * none is) and {@code unsigned long long promoted_table} (its compact copy's device address) after it;
   * then what the kernel counts: {@code unsigned long long promoted_tasks} (DFA_STEP tasks scanned with a
   * block's copy) at {@link #PROMOTED_TASKS_OFFSET}, and 8 bytes of padding.
   */
  public static final int PROMOTION_OFFSET = TRACE_OFFSET - 32;
  public static final int PROMOTED_TASKS_OFFSET = PROMOTION_OFFSET + 16;

  private DeviceStateLayout() {}
}

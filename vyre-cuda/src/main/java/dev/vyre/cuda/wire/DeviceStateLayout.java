package dev.vyre.cuda.wire;

/**
 * The kernel's state in device memory, the C struct {@code VyreDeviceState} (megakernel/memory.cu),
 * as far as the host touches it: it allocates and zeroes {@link #BYTES}, sets {@code abort} to trap
 * every warp and {@code active_blocks} to shed worker blocks, and copies the trace block
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
  public static final int BYTES = 19_424;
  /** The trace block is the struct's tail ({@code trace_seen} onwards). */
  public static final int TRACE_OFFSET = BYTES - TraceLayout.BYTES;

  private DeviceStateLayout() {}
}

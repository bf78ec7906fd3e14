package dev.vyre.scan;

/**
 * Where {@code vyre scan --backend auto} runs a job in a process of its own: a GPU pays a start-up
 * (a CUDA context, the kernel from the pipeline cache, pinned buffers) before its first byte that
 * the CPU reference backend does not, and scans the bytes after it far faster. A job small enough
 * that the CPU's cores finish it within that start-up runs on the CPU.
 *
 * <p>The two figures are measured on the H100 host of docs/BENCHMARKS.md ("Fourteenth session: a
 * real tree against ripgrep, one-shot"): CUDA's start-up took 1.2-2 s with the kernel in the
 * pipeline cache, and the reference backend scanned at 1-4 GB/s on 16 cores (the low end with
 * dense matches), so 100 MB a second per core is the conservative side. A running {@code vyre
 * serve} has paid the start-up already, so this route is for one-shot scans only.
 */
public final class ScanRoute {

  /** CUDA's start-up with the kernel in the pipeline cache, in nanoseconds. */
  public static final long GPU_STARTUP_NANOS = 1_300_000_000L;
  /** What the reference backend scans per core and second, at the dense-match end. */
  public static final long CPU_BYTES_PER_CORE_SECOND = 100_000_000L;

  private ScanRoute() {}

  /** The most bytes a job may have to be run on the CPU by {@code auto}, with {@code cores} cores. */
  public static long cpuCrossoverBytes(int cores) {
    return (long) (cores * (double) CPU_BYTES_PER_CORE_SECOND * GPU_STARTUP_NANOS / 1e9);
  }

  /** Whether {@code auto} runs a job of {@code bytes} bytes on the CPU, given {@code cores} cores. */
  public static boolean onCpu(long bytes, int cores) {
    return bytes < cpuCrossoverBytes(cores);
  }

  /** Why, for {@code --verbose}. */
  public static String explain(long bytes, int cores) {
    return bytes + " bytes to scan, " + (onCpu(bytes, cores) ? "below" : "at or above") + " the "
        + cpuCrossoverBytes(cores) + " that " + cores + " cores scan in the " + GPU_STARTUP_NANOS / 1_000_000
        + " ms a GPU takes to start";
  }
}

package dev.vyre.cuda.plan;

/**
 * vyre's {@code CudaMegakernelDeviceKey}: the CUDA device features that invalidate a cached
 * megakernel plan.
 *
 * @param smMajor SM major version (u16)
 * @param smMinor SM minor version (u16)
 * @param warpSize hardware warp size (u16)
 * @param supportsGridSync whether cooperative grid synchronization is available
 * @param supportsTensorCores whether tensor cores are available
 * @param maxWorkgroupSize maximum threads per block (u32)
 */
public record CudaMegakernelDeviceKey(int smMajor, int smMinor, int warpSize, boolean supportsGridSync,
    boolean supportsTensorCores, long maxWorkgroupSize) {

  private static final long U16_MAX = 0xFFFF;

  /**
   * vyre's {@code From<&CudaDeviceCaps>}: versions and warp size pinned to u16, grid sync needs
   * compute capability 6.0 and cooperative launch, tensor cores need 7.0.
   */
  public static CudaMegakernelDeviceKey fromCapabilities(long computeMajor, long computeMinor, long warpSize,
      boolean cooperativeLaunch, long maxThreadsPerBlock) {
    boolean atLeast60 = computeMajor >= 6;
    boolean atLeast70 = computeMajor >= 7;
    return new CudaMegakernelDeviceKey((int) Math.min(computeMajor, U16_MAX), (int) Math.min(computeMinor, U16_MAX),
        (int) Math.min(warpSize, U16_MAX), atLeast60 && cooperativeLaunch, atLeast70, maxThreadsPerBlock);
  }
}

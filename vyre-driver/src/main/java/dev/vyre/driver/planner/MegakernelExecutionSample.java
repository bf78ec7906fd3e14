package dev.vyre.driver.planner;

/**
 * vyre's {@code MegakernelExecutionSample} (the CUDA scheduler's {@code CudaMegakernelScheduleSample}):
 * telemetry of one candidate wave.
 *
 * @param dispatchCostNs observed dispatch cost in nanoseconds
 * @param frontierDensity observed active-frontier density, nominally in [0, 1]
 * @param readbackBytes observed final readback volume, unsigned
 */
public record MegakernelExecutionSample(double dispatchCostNs, double frontierDensity, long readbackBytes) {

  /** This sample with another readback volume. */
  public MegakernelExecutionSample withReadbackBytes(long bytes) {
    return new MegakernelExecutionSample(dispatchCostNs, frontierDensity, bytes);
  }
}

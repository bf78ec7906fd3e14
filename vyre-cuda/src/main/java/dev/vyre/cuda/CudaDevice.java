package dev.vyre.cuda;

import dev.vyre.cuda.ffm.CudaDriver;

/** What the CUDA backend knows about its device, read once from the driver. */
public record CudaDevice(int ordinal, String name, int major, int minor, int multiprocessors, long totalMemory,
    int driverVersion, boolean canMapHostMemory, boolean cooperativeLaunch) {

  /** Reads device {@code ordinal} (the {@code VYRE_CUDA_DEVICE} variable picks it; default 0). */
  public static CudaDevice query(CudaDriver driver, int ordinal) {
    int device = driver.device(ordinal);
    return new CudaDevice(ordinal, driver.deviceName(device),
        driver.attribute(device, CudaDriver.ATTR_COMPUTE_CAPABILITY_MAJOR),
        driver.attribute(device, CudaDriver.ATTR_COMPUTE_CAPABILITY_MINOR),
        driver.attribute(device, CudaDriver.ATTR_MULTIPROCESSOR_COUNT),
        driver.totalMemory(device), driver.driverVersion(),
        driver.attribute(device, CudaDriver.ATTR_CAN_MAP_HOST_MEMORY) != 0,
        driver.attribute(device, CudaDriver.ATTR_COOPERATIVE_LAUNCH) != 0);
  }

  /** The device ordinal {@code VYRE_CUDA_DEVICE} selects (default 0). */
  public static int selectedOrdinal() {
    String value = System.getenv("VYRE_CUDA_DEVICE");
    try {
      return value == null || value.isBlank() ? 0 : Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw dev.vyre.driver.error.InputException.of("VYRE_CUDA_DEVICE", "\"" + value + "\" is not a device ordinal", "set it to 0, 1, ...");
    }
  }

  /** {@code sm_90} for compute capability 9.0. */
  public String architecture() {
    return "sm_" + major + minor;
  }

  public String describe() {
    return String.format("%s, %s, %d SMs, %.1f GiB, driver %d.%d", name, architecture(), multiprocessors,
        totalMemory / (double) (1L << 30), driverVersion / 1000, driverVersion % 1000 / 10);
  }
}

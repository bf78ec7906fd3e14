package dev.vyre.cuda;

import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.ffm.Nvrtc;
import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.spi.Availability;
import java.util.function.Function;

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

  /**
   * Whether a kernel can run on the selected device here: the driver sees a device, {@code unmet}
   * finds nothing missing (it names what the caller's kernel needs and the device lacks, or returns
   * null), and NVRTC loads. Never throws: what fails becomes the reason.
   */
  public static Availability probe(Function<CudaDevice, String> unmet) {
    try {
      CudaDriver driver = CudaDriver.load();
      if (driver.deviceCount() == 0) {
        return Availability.unusable("the CUDA driver sees no device (check nvidia-smi and CUDA_VISIBLE_DEVICES)");
      }
      CudaDevice device = query(driver, selectedOrdinal());
      String missing = unmet.apply(device);
      if (missing != null) {
        return Availability.unusable(device.describe() + " " + missing);
      }
      Nvrtc nvrtc = Nvrtc.load();
      return Availability.usable(device.describe() + ", NVRTC " + nvrtc.version() + " (" + nvrtc.location() + ")"
          + ", pipeline cache " + PipelineCache.standard().directory());
    } catch (VyreException e) {
      return Availability.unusable(e.getMessage());
    } catch (RuntimeException | LinkageError e) {
      return Availability.unusable("the CUDA driver could not be probed: " + e);
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

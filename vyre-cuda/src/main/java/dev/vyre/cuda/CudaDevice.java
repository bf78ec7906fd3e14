package dev.vyre.cuda;

import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.ffm.Nvrtc;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.spi.Availability;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** What the CUDA backend knows about its device, read once from the driver. */
public record CudaDevice(int ordinal, String name, int major, int minor, int multiprocessors, long totalMemory,
    int driverVersion, boolean canMapHostMemory, boolean cooperativeLaunch) {

  private static final String NO_DEVICE = "the CUDA driver sees no device (check nvidia-smi and CUDA_VISIBLE_DEVICES)";

  /**
   * Reads device {@code ordinal} ({@link #selectedOrdinal()} when the caller asked for none).
   *
   * @throws InputException when the driver sees no device of that ordinal
   */
  public static CudaDevice query(CudaDriver driver, int ordinal) {
    int count = driver.deviceCount();
    if (ordinal < 0 || ordinal >= count) {
      throw InputException.of("device", "CUDA device " + ordinal + " does not exist: the driver sees " + count
          + " device(s)" + (count > 0 ? ", 0.." + (count - 1) : ""),
          "pick one of those (`vyre doctor` lists them; CUDA_VISIBLE_DEVICES renumbers them from 0)");
    }
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
      throw InputException.of("VYRE_CUDA_DEVICE", "\"" + value + "\" is not a device ordinal", "set it to 0, 1, ...");
    }
  }

  /** {@link #probe(int, Function)} of the device {@link #selectedOrdinal()} names. */
  public static Availability probe(Function<CudaDevice, String> unmet) {
    try {
      return probe(selectedOrdinal(), unmet);
    } catch (VyreException e) {
      return Availability.unusable(e.getMessage());
    }
  }

  /**
   * {@link #probe(int, Function)} of every device the driver sees, by ordinal; one unusable entry
   * saying why when the driver cannot be loaded or sees none.
   */
  public static List<Availability> probeAll(Function<CudaDevice, String> unmet) {
    int count;
    try {
      count = CudaDriver.load().deviceCount();
    } catch (VyreException e) {
      return List.of(Availability.unusable(e.getMessage()));
    } catch (RuntimeException | LinkageError e) {
      return List.of(Availability.unusable("the CUDA driver could not be probed: " + e));
    }
    if (count == 0) {
      return List.of(Availability.unusable(NO_DEVICE));
    }
    List<Availability> devices = new ArrayList<>();
    for (int ordinal = 0; ordinal < count; ordinal++) {
      devices.add(probe(ordinal, unmet));
    }
    return devices;
  }

  /**
   * Whether a kernel can run on device {@code ordinal} here: the driver sees it, {@code unmet}
   * finds nothing missing (it names what the caller's kernel needs and the device lacks, or returns
   * null), and NVRTC loads. Never throws: what fails becomes the reason.
   */
  public static Availability probe(int ordinal, Function<CudaDevice, String> unmet) {
    try {
      CudaDriver driver = CudaDriver.load();
      if (driver.deviceCount() == 0) {
        return Availability.unusable(NO_DEVICE);
      }
      CudaDevice device = query(driver, ordinal);
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

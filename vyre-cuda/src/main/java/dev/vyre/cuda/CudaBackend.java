package dev.vyre.cuda;

import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.ffm.Nvrtc;
import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.spi.Availability;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.MegakernelBackend;

/** The CUDA backend: a persistent megakernel on an NVIDIA GPU, driven through FFM. */
public final class CudaBackend implements MegakernelBackend {

  /** The service instance; {@link java.util.ServiceLoader} calls this. */
  public CudaBackend() {}

  @Override
  public String name() {
    return "cuda";
  }

  @Override
  public int precedence() {
    return 5;
  }

  @Override
  public Availability availability() {
    try {
      CudaDriver driver = CudaDriver.load();
      if (driver.deviceCount() == 0) {
        return Availability.unusable("the CUDA driver sees no device (check nvidia-smi and CUDA_VISIBLE_DEVICES)");
      }
      CudaDevice device = CudaDevice.query(driver, CudaDevice.selectedOrdinal());
      if (!device.canMapHostMemory()) {
        return Availability.unusable(device.describe() + " cannot map host memory, which the live ring needs");
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

  @Override
  public KernelSession open(KernelSpec spec) {
    return new CudaSession(spec);
  }
}

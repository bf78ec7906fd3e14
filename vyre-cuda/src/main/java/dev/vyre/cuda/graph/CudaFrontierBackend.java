package dev.vyre.cuda.graph;

import dev.vyre.cuda.CudaDevice;
import dev.vyre.cuda.PipelineCache;
import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.ffm.Nvrtc;
import dev.vyre.driver.error.VyreException;
import dev.vyre.graph.frontier.FrontierBackend;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.runtime.spi.Availability;

/** The CUDA frontier backend: traversals as one persistent cooperative kernel on an NVIDIA GPU (docs/FRONTIER.md). */
public final class CudaFrontierBackend implements FrontierBackend {

  /** The service instance; {@link java.util.ServiceLoader} calls this. */
  public CudaFrontierBackend() {}

  @Override
  public String name() {
    return "cuda";
  }

  @Override
  public int precedence() {
    return 100;
  }

  @Override
  public Availability availability() {
    try {
      CudaDriver driver = CudaDriver.load();
      if (driver.deviceCount() == 0) {
        return Availability.unusable("the CUDA driver sees no device (check nvidia-smi and CUDA_VISIBLE_DEVICES)");
      }
      CudaDevice device = CudaDevice.query(driver, CudaDevice.selectedOrdinal());
      if (!device.cooperativeLaunch()) {
        return Availability.unusable(device.describe() + " cannot launch cooperative kernels, which the frontier kernel is");
      }
      if (!device.canMapHostMemory()) {
        return Availability.unusable(device.describe() + " cannot map host memory, where a graph over budget stays");
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
  public FrontierEngine open() {
    return new CudaFrontierEngine();
  }
}

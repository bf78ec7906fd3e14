package dev.vyre.cuda;

import dev.vyre.runtime.spi.Availability;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.MegakernelBackend;
import java.util.List;

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
    return CudaDevice.probe(CudaBackend::unmet);
  }

  @Override
  public List<Availability> devices() {
    return CudaDevice.probeAll(CudaBackend::unmet);
  }

  /** What the megakernel needs that {@code device} lacks, or null. */
  private static String unmet(CudaDevice device) {
    return device.canMapHostMemory() ? null : "cannot map host memory, which the live ring needs";
  }


  @Override
  public KernelSession open(KernelSpec spec) {
    return new CudaSession(spec);
  }
}

package dev.vyre.cuda.graph;

import dev.vyre.cuda.CudaDevice;
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
    return CudaDevice.probe(device -> !device.cooperativeLaunch()
        ? "cannot launch cooperative kernels, which the frontier kernel is"
        : device.canMapHostMemory() ? null : "cannot map host memory, where a graph over budget stays");
  }


  @Override
  public FrontierEngine open() {
    return new CudaFrontierEngine();
  }
}

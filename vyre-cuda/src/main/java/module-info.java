/**
 * The CUDA backend: FFM bindings to the CUDA driver API and NVRTC, the CUDA C megakernel, the CUDA
 * plan cache, and the CUDA frontier engine (a persistent cooperative kernel).
 */
module dev.vyre.cuda {
  requires transitive dev.vyre.runtime;
  requires dev.vyre.graph;

  exports dev.vyre.cuda;
  exports dev.vyre.cuda.plan;

  provides dev.vyre.runtime.spi.MegakernelBackend with dev.vyre.cuda.CudaBackend;
  provides dev.vyre.graph.frontier.FrontierBackend with dev.vyre.cuda.graph.CudaFrontierBackend;
}

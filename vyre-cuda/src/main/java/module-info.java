/**
 * The CUDA backend: FFM bindings to the CUDA driver API and NVRTC, the CUDA C megakernel, and the
 * CUDA plan cache.
 */
module dev.vyre.cuda {
  requires transitive dev.vyre.runtime;

  exports dev.vyre.cuda;
  exports dev.vyre.cuda.plan;

  provides dev.vyre.runtime.spi.MegakernelBackend with dev.vyre.cuda.CudaBackend;
}

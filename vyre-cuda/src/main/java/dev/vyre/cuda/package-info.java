/**
 * The CUDA backend: a live persistent megakernel on an NVIDIA GPU, driven through FFM without
 * anything from CUDA bundled. {@link dev.vyre.cuda.CudaBackend} is the
 * {@link dev.vyre.runtime.spi.MegakernelBackend} service; {@link dev.vyre.cuda.CudaDevice} reports the
 * device, {@link dev.vyre.cuda.PipelineCache} keeps compiled kernels on disk, and
 * {@link dev.vyre.cuda.CudaBaselines} measures what one-shot launches would cost instead. See
 * docs/PROTOCOL.md, "Where the memory lives on CUDA", and docs/DESIGN.md, "Kernels and compilation".
 */
package dev.vyre.cuda;

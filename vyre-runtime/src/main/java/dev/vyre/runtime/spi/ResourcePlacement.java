package dev.vyre.runtime.spi;

/**
 * Where a resource buffer lives on a GPU backend. The reference backend keeps both in host memory.
 * HOST_MAPPED: pinned host memory the kernel reads over PCIe and the host reads and writes
 * directly (input chunks that io_uring fills). DEVICE: device memory, for data the kernel reads
 * many times (DFA tables) or updates atomically (hit buffers: atomics on mapped host memory are not
 * allowed without PCIe atomics); the host moves its bytes with write and read calls.
 */
public enum ResourcePlacement { HOST_MAPPED, DEVICE }

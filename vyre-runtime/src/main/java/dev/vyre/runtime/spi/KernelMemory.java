package dev.vyre.runtime.spi;

import java.lang.foreign.MemorySegment;

/**
 * The four resident buffers in ABI order (docs/PROTOCOL.md, "Buffers"), as host-accessible
 * segments, and the express lane ({@link dev.vyre.runtime.wire.ExpressLayout}; empty when the
 * backend reads none). On the reference backend they are arena memory; on CUDA they are pinned,
 * device-mapped host memory. Either way they end with the session: an access after
 * {@link KernelSession#close()} throws IllegalStateException ({@link HostViews}).
 */
public record KernelMemory(MemorySegment control, MemorySegment ring, MemorySegment debugLog, MemorySegment ioQueue,
                           MemorySegment express) {}

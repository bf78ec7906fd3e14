/**
 * The host API of the persistent megakernel. Start with {@link dev.vyre.runtime.Megakernel}: built
 * by {@link dev.vyre.runtime.Megakernel#builder()}, launched once by
 * {@link dev.vyre.runtime.MegakernelBuilder#bootstrap()}, then fed tasks while it runs, one at a time
 * ({@link dev.vyre.runtime.Task}, {@code submit} and {@code publish}) or in allocation-free batches
 * ({@link dev.vyre.runtime.TaskBatch}), each at a {@link dev.vyre.runtime.Priority}. A task ends as a
 * {@link dev.vyre.runtime.TaskResult}; {@link dev.vyre.runtime.ShutdownReport} hands back what was
 * still in flight. {@link dev.vyre.runtime.Backends} finds the backends (reference, CUDA) on the path.
 * The protocol underneath is described in docs/PROTOCOL.md.
 */
package dev.vyre.runtime;

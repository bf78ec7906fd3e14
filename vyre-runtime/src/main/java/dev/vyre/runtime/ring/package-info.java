/**
 * The kernel's host-side ring machinery: the priority partitions and their cursors ({@link
 * dev.vyre.runtime.ring.RingPartition}, {@link dev.vyre.runtime.ring.Sequence}), the retire step
 * and the chunks verified ahead of it ({@link dev.vyre.runtime.ring.RetireStep}), and the host's
 * views of the kernel's memory ({@link dev.vyre.runtime.ring.KernelViews}). Internal: used by
 * {@code dev.vyre.runtime}, which depends on this package and not the other way round, except for
 * the API types {@link dev.vyre.runtime.TaskResult} and {@link dev.vyre.runtime.IdleStrategy}.
 * {@code module-info} does not export it, so library users on the module path cannot see it; the
 * JMH benchmarks, on the class path, can. The protocol is described in docs/PROTOCOL.md.
 */
package dev.vyre.runtime.ring;

/**
 * The service interface between the host API and a backend. A backend implements
 * {@link dev.vyre.runtime.spi.MegakernelBackend} (found through {@link java.util.ServiceLoader}),
 * which opens a {@link dev.vyre.runtime.spi.KernelSession} for a {@link dev.vyre.runtime.spi.KernelSpec}
 * over the resident buffers of {@link dev.vyre.runtime.spi.KernelMemory}. User opcodes are
 * {@link dev.vyre.runtime.spi.UserOpcode}s: a Java {@link dev.vyre.runtime.spi.OpcodeHandler} that sees
 * its slot through {@link dev.vyre.runtime.spi.SlotContext}, and/or a CUDA C body. Modules add lines
 * to {@code vyre doctor} through {@link dev.vyre.runtime.spi.DoctorProbe}.
 */
package dev.vyre.runtime.spi;

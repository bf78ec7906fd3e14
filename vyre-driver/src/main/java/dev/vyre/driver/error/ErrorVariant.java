package dev.vyre.driver.error;

/**
 * One variant of an error family. Each family declares its variants as an enum implementing this
 * ({@code PipelineException.Variant}, {@code KernelException.Variant}, ...), so callers compare and
 * switch on constants the compiler checks, never on spelled-out names. {@link #name()} is the
 * variant's wire name, the one the conformance JSON prints.
 *
 * <p>Not sealed: families declared in other modules (tenants, replay logs, the CUDA planners)
 * bring their own enums, and a sealed type may only permit subtypes of its own module.
 */
public interface ErrorVariant {

  /** The variant's name as vyre spells it, e.g. {@code QueueFull}; an enum constant's own name. */
  String name();
}

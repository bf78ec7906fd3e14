package dev.vyre.runtime.spi;

/**
 * A backend that can run the persistent megakernel, found through {@link java.util.ServiceLoader}.
 * {@code reference} is always present; {@code cuda} when its module is on the class path.
 */
public interface MegakernelBackend {

  /** The name used by {@code --backend}. */
  String name();

  /** Higher wins when {@code auto} chooses among usable backends. */
  int precedence();

  /** Probes the machine; never throws. */
  Availability availability();

  /**
   * Every device of this backend by ordinal (the list's index), each usable or not and why, for
   * {@code vyre doctor} and {@code --devices all}; one entry, {@link #availability()}, for a
   * backend with a single device. Never throws.
   */
  default java.util.List<Availability> devices() {
    return java.util.List.of(availability());
  }

  /** Allocates the resident buffers and prepares (but does not start) the kernel. */
  KernelSession open(KernelSpec spec);
}

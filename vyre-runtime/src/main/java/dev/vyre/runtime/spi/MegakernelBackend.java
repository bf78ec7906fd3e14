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

  /** Allocates the resident buffers and prepares (but does not start) the kernel. */
  KernelSession open(KernelSpec spec);
}

package dev.vyre.reference;

import dev.vyre.runtime.spi.Availability;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.MegakernelBackend;

/**
 * The CPU reference backend: the megakernel protocol run by Java threads over the same bytes. It
 * has one device, the CPU, and takes any device ordinal as a label (each kernel still gets its own
 * buffers and workers), so that code which spreads work over several devices runs, and is tested,
 * without a GPU.
 */
public final class ReferenceBackend implements MegakernelBackend {

  /** The service instance; {@link java.util.ServiceLoader} calls this. */
  public ReferenceBackend() {}

  @Override
  public String name() {
    return "reference";
  }

  @Override
  public int precedence() {
    return 0;
  }

  @Override
  public Availability availability() {
    return Availability.usable("CPU reference, " + Runtime.getRuntime().availableProcessors() + " core(s), always available");
  }

  @Override
  public KernelSession open(KernelSpec spec) {
    return new ReferenceSession(spec);
  }

  /** Default worker count: one per core beyond the one left for publishers, at least one. */
  static int defaultWorkers() {
    return Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
  }
}

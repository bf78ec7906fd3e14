package dev.vyre.reference;

import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.spi.MegakernelBackend;
import java.util.stream.IntStream;

/**
 * The backend the backend-neutral suites run on: the reference backend by default, or the one
 * named by {@code -Dvyre.test.backend} (scripts/gpu-check.sh runs them with {@code cuda}).
 */
public final class TestBackends {

  private TestBackends() {}

  public static MegakernelBackend selected() {
    String name = System.getProperty("vyre.test.backend", "reference");
    return name.equals("reference") ? new ReferenceBackend() : Backends.select(name).backend();
  }

  /**
   * Devices for a test that spreads work over several: three labels of the CPU on the reference
   * backend; every usable device of another backend (CUDA: each GPU).
   */
  public static int[] shardDevices() {
    MegakernelBackend backend = selected();
    if (backend instanceof ReferenceBackend) {
      return new int[] {0, 1, 2};
    }
    var devices = backend.devices();
    return IntStream.range(0, devices.size()).filter(ordinal -> devices.get(ordinal).usable()).toArray();
  }

  /** A kernel for scan jobs on the selected backend: 1,024 slots of priority NORMAL, two reference workers. */
  public static Megakernel scanKernel() {
    return Megakernel.builder().backend(selected()).slots(1024).singlePriority(Priority.NORMAL).workers(2).bootstrap();
  }

  /** The same on {@code device} with one reference worker, for jobs spread over several kernels. */
  public static Megakernel scanKernel(int device) {
    return Megakernel.builder().backend(selected()).device(device).slots(1024).singlePriority(Priority.NORMAL).workers(1)
        .bootstrap();
  }
}

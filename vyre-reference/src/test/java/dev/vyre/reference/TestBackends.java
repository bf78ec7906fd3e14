package dev.vyre.reference;

import dev.vyre.runtime.Backends;
import dev.vyre.runtime.spi.MegakernelBackend;

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
}

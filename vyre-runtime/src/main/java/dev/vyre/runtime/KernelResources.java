package dev.vyre.runtime;

import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What a kernel holds besides its ring: resource buffers its tasks read and write (handed out by
 * the session, freed by shutdown), copies between them, and the services bound to the kernel
 * (the IO request pump is one), closed by shutdown in the order they were made.
 */
final class KernelResources {

  private final KernelSession session;
  private final KernelLifecycle lifecycle;
  /** Made by {@link #service}, closed by {@link #closeServices}; guarded by the kernel's lock (see Megakernel). */
  private final Map<Class<?>, Object> services = new LinkedHashMap<>();

  KernelResources(KernelSession session, KernelLifecycle lifecycle) {
    this.session = session;
    this.lifecycle = lifecycle;
  }

  int allocate(long byteSize, ResourcePlacement placement) {
    lifecycle.checkSession();
    return session.allocateResource(byteSize, placement);
  }

  MemorySegment view(int handle) {
    lifecycle.checkSession();
    return session.resource(handle);
  }

  void write(int handle, long offset, MemorySegment source) {
    lifecycle.checkSession();
    session.writeResource(handle, offset, source);
  }

  void read(int handle, long offset, MemorySegment target) {
    lifecycle.checkSession();
    session.readResource(handle, offset, target);
  }

  long startCopy(int from, int to, long bytes) {
    lifecycle.checkOpen();
    return session.startCopy(from, to, bytes);
  }

  boolean copyFinished(long copy) {
    return session.copyFinished(copy);
  }

  /** See {@link Megakernel#service}; the caller holds the kernel's lock. */
  <T> T service(Class<T> type, Function<KernelSession, ? extends T> factory) {
    lifecycle.checkOpen();
    Object existing = services.get(type);
    if (existing != null) {
      return type.cast(existing);
    }
    T made = factory.apply(session);
    services.put(type, made);
    return made;
  }

  /** Closes every service in the order made, once the kernel has exited; the caller holds the kernel's lock. */
  void closeServices() {
    for (Object service : services.values()) {
      try {
        if (service instanceof AutoCloseable closeable) {
          closeable.close();
        }
      } catch (Exception e) {
        throw new IllegalStateException("closing " + service + " at shutdown", e);
      }
    }
    services.clear();
  }
}

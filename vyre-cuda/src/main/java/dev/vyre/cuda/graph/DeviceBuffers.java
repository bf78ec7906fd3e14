package dev.vyre.cuda.graph;

import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.internal.Releases;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/**
 * The frontier engine's buffers by name, in device memory or in pinned host memory mapped into the
 * device's address space: a buffer grows (freed and allocated again, its contents lost) when a run
 * needs more and never shrinks, so that runs of one size allocate nothing. Not thread-safe: the
 * engine calls it under its lock.
 */
final class DeviceBuffers {

  /** A mapped buffer: the host's view and the address the kernel uses. */
  record Mapped(MemorySegment host, long device) {}

  private record Device(long pointer, long bytes) {}

  private final CudaDriver driver;
  private final Map<String, Device> device = new HashMap<>();
  private final Map<String, Mapped> mapped = new HashMap<>();

  DeviceBuffers(CudaDriver driver) {
    this.driver = driver;
  }

  /** Device buffer {@code name} of at least {@code bytes} bytes (16 at least, so that none is empty). */
  long device(String name, long bytes) {
    long wanted = Math.max(16, bytes);
    Device held = device.get(name);
    if (held != null && held.bytes() >= wanted) {
      return held.pointer();
    }
    free(name);
    long pointer = driver.allocDevice(wanted);
    device.put(name, new Device(pointer, wanted));
    return pointer;
  }

  /** Mapped host buffer {@code name} of at least {@code bytes} bytes. */
  Mapped mapped(String name, long bytes) {
    long wanted = Math.max(16, bytes);
    Mapped held = mapped.get(name);
    if (held != null && held.host().byteSize() >= wanted) {
      return held;
    }
    freeMapped(name);
    MemorySegment host = driver.allocMappedHost(wanted);
    try {
      Mapped fresh = new Mapped(host, driver.devicePointer(host));
      mapped.put(name, fresh);
      return fresh;
    } catch (RuntimeException e) {
      driver.freeHost(host);
      throw e;
    }
  }

  /** Frees device buffer {@code name} if there is one. */
  void free(String name) {
    Device held = device.remove(name);
    if (held != null) {
      driver.freeDevice(held.pointer());
    }
  }

  /** Frees mapped buffer {@code name} if there is one. */
  void freeMapped(String name) {
    Mapped held = mapped.remove(name);
    if (held != null) {
      driver.freeHost(held.host());
    }
  }

  /** Frees everything; every free is tried even when one fails. */
  void close() {
    Releases releases = new Releases();
    device.values().forEach(held -> releases.add(() -> driver.freeDevice(held.pointer())));
    mapped.values().forEach(held -> releases.add(() -> driver.freeHost(held.host())));
    device.clear();
    mapped.clear();
    releases.releaseAll();
  }
}

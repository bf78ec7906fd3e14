package dev.vyre.cuda;

import dev.vyre.cuda.internal.CudaContext;
import dev.vyre.cuda.internal.Releases;
import dev.vyre.cuda.wire.ResourceTableLayout;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A CUDA session's resources: the buffers tasks name by handle, the device table the kernel looks
 * them up in ({@code ResourceTableLayout}), the host's reads and writes of them, and the copies
 * between them. A resource comes from its own allocation, or from the session's {@link
 * PreLaunchArena} when there is one. Not thread-safe: {@link CudaSession} calls it under its lock,
 * after checking that it is open.
 */
final class CudaResources {

  /** Entries of the resource table. */
  static final int CAPACITY = 4096;

  /** One allocated resource: its device-visible address, size, and host view (mapped ones only). */
  private record Resource(long devicePointer, long byteSize, MemorySegment host) {}

  private final SessionMemory memory;
  private final CudaContext context;
  private final PreLaunchArena arena;
  private final long table;
  private final List<Resource> resources = new ArrayList<>();
  /** Created by the first {@link #startCopy}. */
  private CopyQueue copies;

  /** Allocates the table (and reserves the arena, when asked): before the kernel launches. */
  CudaResources(SessionMemory memory, CudaContext context) {
    this.memory = memory;
    this.context = context;
    this.table = memory.device(ResourceTableLayout.entryOffset(CAPACITY), true);
    this.arena = PreLaunchArena.reserveIfAsked(memory);
  }

  /** The resource table's device address, for the kernel's arguments. */
  long table() {
    return table;
  }

  /** Where resources come from, for the session's description. */
  String describe() {
    return arena == null ? "" : ", resources from " + arena.describe();
  }

  int allocate(long byteSize, ResourcePlacement placement) {
    if (byteSize < 0) {
      throw PipelineException.invalidArgument("resource", "resource size " + byteSize + " is negative", "pass a size of at least 0 bytes");
    }
    if (resources.size() == CAPACITY) {
      throw PipelineException.queueFull("resource", "resource table holds " + CAPACITY + " buffers",
          "free a megakernel or use fewer, larger resources");
    }
    context.makeCurrent();
    long allocated = Math.max(byteSize, 1);
    Resource resource;
    if (placement == ResourcePlacement.HOST_MAPPED) {
      SessionMemory.Mapped mapped = arena != null ? arena.mapped(allocated) : memory.pageAligned(allocated);
      resource = new Resource(mapped.devicePointer(), byteSize, mapped.host().asSlice(0, byteSize));
    } else {
      resource = new Resource(arena != null ? arena.device(allocated) : memory.device(allocated, true), byteSize, null);
    }
    int handle = resources.size();
    resources.add(resource);
    try (Arena scratch = Arena.ofConfined()) {
      MemorySegment entry = scratch.allocate(ResourceTableLayout.ENTRY_BYTES, 8);
      ResourceTableLayout.write(entry, resource.devicePointer(), byteSize, placement == ResourcePlacement.HOST_MAPPED);
      memory.driver().copyToDevice(table + ResourceTableLayout.entryOffset(handle), entry, ResourceTableLayout.ENTRY_BYTES);
    }
    memory.awaitLegacyStream();
    return handle;
  }

  /** The byte size of the resource at {@code handle} (a typed error for a handle never allocated). */
  long byteSize(int handle) {
    return checked(handle, 0, 0).byteSize();
  }

  /** The host view of a HOST_MAPPED resource; null for a DEVICE one or a handle never allocated. */
  MemorySegment hostView(int handle) {
    return handle >= 0 && handle < resources.size() ? resources.get(handle).host() : null;
  }

  void write(int handle, long offset, MemorySegment source) {
    Resource resource = checked(handle, offset, source.byteSize());
    if (resource.host() != null) {
      resource.host().asSlice(offset, source.byteSize()).copyFrom(source);
      return;
    }
    context.makeCurrent();
    if (source.isNative()) {
      memory.driver().copyToDevice(resource.devicePointer() + offset, source, source.byteSize());
    } else {
      // A heap segment goes through a staging copy, freed on return: cuMemcpyHtoD has read it by then.
      try (Arena scratch = Arena.ofConfined()) {
        MemorySegment staging = scratch.allocate(Math.max(1, source.byteSize()), 8).asSlice(0, source.byteSize());
        staging.copyFrom(source);
        memory.driver().copyToDevice(resource.devicePointer() + offset, staging, source.byteSize());
      }
    }
    memory.awaitLegacyStream();
  }

  void read(int handle, long offset, MemorySegment target) {
    Resource resource = checked(handle, offset, target.byteSize());
    if (resource.host() != null) {
      target.copyFrom(resource.host().asSlice(offset, target.byteSize()));
      return;
    }
    context.makeCurrent();
    if (target.isNative()) {
      memory.driver().copyToHost(target, resource.devicePointer() + offset, target.byteSize());
    } else {
      try (Arena scratch = Arena.ofConfined()) {
        MemorySegment staging = scratch.allocate(target.byteSize(), 8);
        memory.driver().copyToHost(staging, resource.devicePointer() + offset, target.byteSize());
        target.copyFrom(staging);
      }
    }
  }

  long startCopy(int from, int to, long bytes) {
    Resource source = checked(from, 0, bytes);
    Resource target = checked(to, 0, bytes);
    if (source.host() == null) {
      throw PipelineException.invalidArgument("resource", "resource " + from + " is not HOST_MAPPED", "copy from a HOST_MAPPED resource");
    }
    if (copies == null) {
      copies = new CopyQueue(memory.driver(), context);
    }
    return copies.start(target.devicePointer(), source.host().asSlice(0, bytes));
  }

  boolean copyFinished(long copy) {
    return copies == null || copies.finished(copy);
  }

  /** Registers the copy queue's close in {@code releases}, to run before the frees: its copies may target resources. */
  void closeCopiesFirst(Releases releases) {
    if (copies != null) {
      CopyQueue queue = copies;
      releases.add(queue::close);
    }
  }

  private Resource checked(int handle, long offset, long length) {
    if (handle < 0 || handle >= resources.size()) {
      throw PipelineException.invalidArgument("resource", "no resource has handle " + handle, "use a handle returned by allocateResource");
    }
    Resource resource = resources.get(handle);
    if (offset < 0 || length < 0 || offset + length > resource.byteSize()) {
      throw PipelineException.invalidArgument("resource", "range [" + offset + ", " + (offset + length) + ") is outside resource "
          + handle + " of " + resource.byteSize() + " bytes", "copy within the resource's size");
    }
    return resource;
  }
}

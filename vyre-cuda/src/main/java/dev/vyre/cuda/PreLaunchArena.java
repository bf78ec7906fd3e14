package dev.vyre.cuda;

import dev.vyre.driver.error.PipelineException;
import java.util.Locale;

/**
 * Device and mapped pinned memory reserved before a kernel launches, from which its resources are cut,
 * when {@value #PROPERTY} asks for it (docs/PROTOCOL.md, "Resources allocated before the launch").
 * compute-sanitizer's memcheck checks a kernel's accesses against the allocations that existed when it
 * launched: a persistent kernel reads resources allocated later (a scan's DFA table, chunk and hit
 * buffers), and memcheck flags every such read. Cut from these two blocks, every resource lies inside an
 * allocation the kernel launched with. Off by default: the blocks hold their size for the kernel's life.
 * Resources are never freed one by one (a session frees them at close), so each block is a bump
 * allocator, zeroed once when reserved.
 */
final class PreLaunchArena {

  /** The system property: bytes reserved of each kind, with an optional k, m or g (binary) suffix. */
  static final String PROPERTY = "vyre.cuda.preLaunchArena";
  /** Device resources start on 256-byte boundaries, as cuMemAlloc's do. */
  private static final long DEVICE_ALIGNMENT = 256;

  private final long bytes;
  private final long device;
  private final SessionMemory.Mapped mapped;
  private long deviceUsed;
  private long mappedUsed;

  private PreLaunchArena(long bytes, long device, SessionMemory.Mapped mapped) {
    this.bytes = bytes;
    this.device = device;
    this.mapped = mapped;
  }

  /** The arena {@value #PROPERTY} asks for, reserved through {@code memory}; null when it is not set. */
  static PreLaunchArena reserveIfAsked(SessionMemory memory) {
    long bytes = parseBytes(System.getProperty(PROPERTY));
    if (bytes == 0) {
      return null;
    }
    return new PreLaunchArena(bytes, memory.device(bytes, true), memory.pageAligned(bytes));
  }

  /** {@code text} as bytes: a whole number with an optional k, m or g suffix; 0 for null or blank. */
  static long parseBytes(String text) {
    if (text == null || text.isBlank()) {
      return 0;
    }
    String value = text.strip().toLowerCase(Locale.ROOT);
    int shift = switch (value.charAt(value.length() - 1)) {
      case 'k' -> 10;
      case 'm' -> 20;
      case 'g' -> 30;
      default -> 0;
    };
    String digits = shift == 0 ? value : value.substring(0, value.length() - 1);
    try {
      long number = Long.parseLong(digits);
      if (number > 0 && number <= Long.MAX_VALUE >> shift) {
        return number << shift;
      }
    } catch (NumberFormatException notANumber) {
      // refused below
    }
    throw PipelineException.invalidArgument(PROPERTY, "-D" + PROPERTY + "=" + text + " is not a size in bytes",
        "pass a positive whole number of bytes, optionally with k, m or g, e.g. -D" + PROPERTY + "=512m, or leave it unset");
  }

  /** The device address of {@code size} fresh zeroed bytes. */
  long device(long size) {
    long start = alignUp(deviceUsed, DEVICE_ALIGNMENT);
    checkRoom("device", start, size);
    deviceUsed = start + size;
    return device + start;
  }

  /** {@code size} fresh zeroed bytes of mapped pinned memory, page-aligned (io_uring's registered buffers need pages). */
  SessionMemory.Mapped mapped(long size) {
    long start = alignUp(mappedUsed, SessionMemory.PAGE);
    checkRoom("mapped", start, size);
    mappedUsed = start + size;
    return mapped.slice(start, size);
  }

  String describe() {
    String size = bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
    return size + " device + " + size + " mapped reserved before the launch";
  }

  private void checkRoom(String kind, long start, long size) {
    if (start > bytes || size > bytes - start) {
      throw PipelineException.queueFull("resource", "the " + kind + " memory reserved before the launch (-D" + PROPERTY + "="
          + bytes + ") has " + Math.max(0, bytes - start) + " bytes left, and a resource needs " + size,
          "raise -D" + PROPERTY + " (it reserves that many bytes of device and of mapped memory), or leave it unset");
    }
  }

  private static long alignUp(long offset, long alignment) {
    return (offset + alignment - 1) / alignment * alignment;
  }
}

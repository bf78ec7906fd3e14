package dev.vyre.io.uring;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.BufferPool;
import dev.vyre.io.IoUringAvailability;
import dev.vyre.io.ReadCompletion;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds out whether io_uring works here by doing what its users do: set up a ring, register a
 * buffer and a file table, and READ_FIXED the first bytes of {@code /proc/self/exe} (the chunk
 * reader), then read them again with a plain READ ({@link IoUringRangeReader}, the IO request
 * pump: Linux 5.5 has the first and not the second). Every failure is turned into the reason an
 * operator needs (old kernel, seccomp, sysctl, memlock).
 */
public final class IoUringProbe {

  private static final Path PROBE_FILE = Path.of("/proc/self/exe");
  private static final Path DISABLED_SYSCTL = Path.of("/proc/sys/kernel/io_uring_disabled");

  private IoUringProbe() {}

  public static IoUringAvailability probe() {
    try (Arena arena = Arena.ofConfined();
        IoUringChunkReader reader = new IoUringChunkReader(BufferPool.of(BufferPool.allocate(arena, 1, 4096)))) {
      int file = reader.openFile(PROBE_FILE);
      reader.submit(file, 0, 4, 0, 0);
      ReadCompletion read = reader.await();
      if (read.failed()) {
        throw read.error();
      }
      int magic = reader.pool().buffer(0).get(ValueLayout.JAVA_INT_UNALIGNED, 0);
      if (read.bytesRead() != 4 || magic != ELF_MAGIC) {
        return wrongBytes("READ_FIXED");
      }
      String plainRead = plainReadProblem(arena);
      if (plainRead != null) {
        return new IoUringAvailability(false, "io_uring unavailable: " + plainRead + ". Fix: run on Linux 5.6 or newer, "
            + "or rely on the FileChannel reader, which is used automatically");
      }
      return new IoUringAvailability(true, "io_uring available: registered buffers and files, READ_FIXED, READ");
    } catch (PipelineException e) {
      return new IoUringAvailability(false, explain(e));
    } catch (RuntimeException | LinkageError e) {
      return new IoUringAvailability(false, "io_uring could not be reached through FFM (" + e
          + "). Fix: run with --enable-native-access=ALL-UNNAMED on Linux 5.6 or newer");
    }
  }

  private static final int ELF_MAGIC = 0x464C457F;

  /** Why a plain READ of the probe file's first 4 bytes does not give them, or null when it does. */
  private static String plainReadProblem(Arena arena) {
    MemorySegment target = arena.allocate(4, 4);
    String[] failure = new String[1];
    long[] bytes = new long[1];
    LinuxCalls calls = new LinuxCalls(arena);
    int fd = calls.open(PROBE_FILE);
    try (IoUringRangeReader reader = new IoUringRangeReader(1, (tag, bytesRead, why) -> {
      bytes[0] = bytesRead;
      failure[0] = why;
    })) {
      reader.read(0, fd, 0, target, 4);
      reader.submit();
      // close() waits for the read.
    } finally {
      calls.close(fd);
    }
    if (failure[0] != null) {
      return "the kernel has io_uring's READ_FIXED but its plain READ failed (" + failure[0] + "; Linux 5.5 has no READ)";
    }
    return bytes[0] == 4 && target.get(ValueLayout.JAVA_INT_UNALIGNED, 0) == ELF_MAGIC ? null
        : "io_uring READ of " + PROBE_FILE + " returned wrong bytes";
  }

  private static IoUringAvailability wrongBytes(String operation) {
    return new IoUringAvailability(false, "io_uring " + operation + " of " + PROBE_FILE + " returned wrong bytes. Fix: "
        + "use the FileChannel reader and report this kernel");
  }

  static String explain(PipelineException e) {
    if (e.variant() != PipelineException.Variant.IoUringSyscall) {
      return e.getMessage();
    }
    String syscall = String.valueOf(e.fields().get("syscall"));
    int errno = ((Long) e.fields().get("errno")).intValue();
    String why = switch (errno) {
      case Errno.ENOSYS -> "the kernel has no io_uring (ENOSYS: older than 5.1, or built without it)";
      case Errno.EPERM, Errno.EACCES -> "io_uring is blocked (" + Errno.name(errno) + ": a seccomp filter, as in "
          + "Docker's default profile, or " + disabledSysctl() + ")";
      case Errno.EINVAL -> "the kernel lacks a feature the reader needs (EINVAL in " + syscall
          + ": Linux 5.6 or newer is needed)";
      case Errno.ENOMEM -> "the kernel refused to pin a registered buffer (ENOMEM in " + syscall
          + ": the locked-memory limit, ulimit -l, is too low)";
      default -> e.getMessage();
    };
    return "io_uring unavailable: " + why + ". Fix: allow io_uring (kernel 5.6+, no seccomp block, "
        + "kernel.io_uring_disabled=0) or rely on the FileChannel reader, which is used automatically";
  }

  private static String disabledSysctl() {
    try {
      return "kernel.io_uring_disabled=" + Files.readString(DISABLED_SYSCTL).strip();
    } catch (IOException e) {
      return "sysctl kernel.io_uring_disabled";
    }
  }
}

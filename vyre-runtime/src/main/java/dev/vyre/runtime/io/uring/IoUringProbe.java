package dev.vyre.runtime.io.uring;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.io.BufferPool;
import dev.vyre.runtime.io.IoUringAvailability;
import dev.vyre.runtime.io.ReadCompletion;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds out whether io_uring works here by doing what the reader does: set up a ring, register a
 * buffer and a file table, and READ_FIXED the first bytes of {@code /proc/self/exe}. Every
 * failure is turned into the reason an operator needs (old kernel, seccomp, sysctl, memlock).
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
      if (read.bytesRead() != 4 || magic != 0x464C457F) {
        return new IoUringAvailability(false, "io_uring READ_FIXED of " + PROBE_FILE + " returned wrong bytes. Fix: "
            + "use the FileChannel reader and report this kernel");
      }
      return new IoUringAvailability(true, "io_uring available: registered buffers and files, READ_FIXED");
    } catch (PipelineException e) {
      return new IoUringAvailability(false, explain(e));
    } catch (RuntimeException | LinkageError e) {
      return new IoUringAvailability(false, "io_uring could not be reached through FFM (" + e
          + "). Fix: run with --enable-native-access=ALL-UNNAMED on Linux 5.6 or newer");
    }
  }

  static String explain(PipelineException e) {
    if (!e.variant().equals("IoUringSyscall")) {
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

package dev.vyre.io.uring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.PathBytes;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The kernel calls io_uring needs, through FFM and libc's {@code syscall}: io_uring_setup, _enter and
 * _register (which glibc does not wrap), {@code mmap} and {@code munmap} for the rings, {@code openat}
 * (with {@code lseek} and {@code fcntl}) and {@code close} for the files, and, to drop a file's cached
 * pages, {@code fdatasync} and {@code fadvise64}. Each call captures {@code errno} into this instance's
 * own state segment, so an instance belongs to one thread at a time. A failed call throws {@link
 * PipelineException} ({@code IoUringSyscall}) with the call's name and errno.
 */
final class LinuxCalls {

  private static final int PROT_READ_WRITE = 0x1 | 0x2;
  private static final int MAP_SHARED_POPULATE = 0x01 | 0x8000;
  private static final int O_RDONLY_CLOEXEC = 0x80000;
  /** Same value on x86_64 and aarch64. */
  private static final int O_NONBLOCK = 0x800;
  /**
   * Read-only, close-on-exec and non-blocking: how {@link #open} and the chunk reader's OPENAT open a
   * listed file, so that a FIFO swapped in for it cannot make the open wait for a writer.
   */
  static final int OPEN_AHEAD_FLAGS = O_RDONLY_CLOEXEC | O_NONBLOCK;
  private static final long AT_FDCWD = -100;
  private static final int SEEK_CUR = 1;
  private static final int F_SETFL = 4;
  /** lseek's errno on a FIFO or a socket, which have no file offset. */
  static final int ESPIPE = 29;

  private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
  private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

  /**
   * Every call goes through libc's {@code syscall}, one downcall handle, built on first use: FFM spins a stub
   * class for each distinct signature it links, and on a small scan the seven signatures of the libc wrappers
   * were a large part of the start-up (docs/BENCHMARKS.md, "Twenty-second session: one downcall for the
   * kernel calls (dev VM)"). Building it fails off Linux/glibc, which nativeFailure turns into NotLinux.
   */
  private static final class Handle {
    static final MethodHandle SYSCALL = downcall();
  }

  /** The syscall numbers of this machine's architecture. */
  private record Numbers(long mmap, long munmap, long openat, long close, long lseek, long fcntl, long fdatasync,
      long fadvise64) {

    static final Numbers HERE = of(System.getProperty("os.arch", ""));

    static Numbers of(String arch) {
      return switch (arch) {
        case "amd64", "x86_64" -> new Numbers(9, 11, 257, 3, 8, 72, 75, 221);
        // Linux's generic table.
        case "aarch64", "riscv64", "loongarch64" -> new Numbers(222, 215, 56, 57, 62, 25, 83, 223);
        default -> null;
      };
    }
  }

  private static MethodHandle downcall() {
    Linker linker = Linker.nativeLinker();
    MemorySegment symbol = linker.defaultLookup().find("syscall").orElseThrow(PipelineException::notLinux);
    return linker.downcallHandle(symbol,
        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
        Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"));
  }

  private final MemorySegment errnoState;
  private final Numbers numbers;

  /** The state segment lives in {@code arena}, which must outlive every call. */
  LinuxCalls(Arena arena) {
    if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
      throw PipelineException.notLinux();
    }
    numbers = Numbers.HERE;
    if (numbers == null) {
      throw PipelineException.notLinux("io_uring is called by syscall number, known here for x86_64, aarch64, riscv64 and"
          + " loongarch64, not " + System.getProperty("os.arch"), "none needed, vyre reads with FileChannel instead");
    }
    this.errnoState = arena.allocate(CAPTURE);
  }

  /** {@code syscall(number, a1, a2, a3, a4, a5, a6)}; returns the non-negative result. */
  long syscall(String name, long number, long a1, long a2, long a3, long a4, long a5, long a6, String fix) {
    long result = call(name, number, a1, a2, a3, a4, a5, a6);
    if (result == -1) {
      throw failure(name, fix);
    }
    return result;
  }

  /** The call itself: its result, -1 with errno captured when it failed. */
  private long call(String name, long number, long a1, long a2, long a3, long a4, long a5, long a6) {
    try {
      return (long) Handle.SYSCALL.invokeExact(errnoState, number, a1, a2, a3, a4, a5, a6);
    } catch (Throwable e) {
      throw nativeFailure(name, e);
    }
  }

  /** Maps {@code length} bytes of {@code fd} at {@code offset}, shared and populated. */
  MemorySegment mmap(String what, long length, int fd, long offset) {
    long address = call("mmap", numbers.mmap(), 0L, length, PROT_READ_WRITE, MAP_SHARED_POPULATE, fd, offset);
    if (address == -1) {
      throw failure("mmap(" + what + ")", "raise the locked-memory limit (ulimit -l) or use fewer ring entries");
    }
    return MemorySegment.ofAddress(address).reinterpret(length);
  }

  /** Teardown: a failure leaves nothing the caller could repair, so its result is not checked. */
  void munmap(MemorySegment mapping) {
    call("munmap", numbers.munmap(), mapping.address(), mapping.byteSize(), 0, 0, 0, 0);
  }

  /**
   * Opens {@code path} read-only (and close-on-exec); returns the descriptor of a file that has
   * offsets to read at. A FIFO put where a listed file was would make a plain open(2) wait for a
   * writer for ever, and a check of the path before the open races with such a swap; so the open is
   * non-blocking, the opened file itself is checked (lseek fails with ESPIPE on a FIFO or a socket,
   * which are refused with that errno), and only then are its reads made blocking again.
   */
  int open(Path path) {
    int fd = openWithFlags(path, OPEN_AHEAD_FLAGS);
    try {
      requireOffsets(fd, path);
      clearNonBlocking(fd, path.toString());
    } catch (RuntimeException e) {
      close(fd);
      throw e;
    }
    return fd;
  }

  /**
   * The check {@link #open} makes of a descriptor opened non-blocking: lseek fails with ESPIPE on a
   * FIFO or a socket, which is thrown as the open's failure; the caller closes the descriptor.
   */
  void requireOffsets(int fd, Path path) {
    if (call("lseek", numbers.lseek(), fd, 0L, SEEK_CUR, 0, 0, 0) == -1) {
      throw failure("open(" + path + ")", "pass a regular file: a FIFO or a socket has no offsets to read at");
    }
  }

  /** Makes reads of {@code fd} blocking again: F_SETFL with 0 clears O_NONBLOCK (the access mode stays). */
  void clearNonBlocking(int fd, String what) {
    if (call("fcntl", numbers.fcntl(), fd, F_SETFL, 0, 0, 0, 0) == -1) {
      throw failure("fcntl(" + what + ", F_SETFL)", "report this: a descriptor just opened refused its flags");
    }
  }

  /** A plain blocking open of any kind of file, for tests that read a FIFO on purpose. */
  int openUnchecked(Path path) {
    return openWithFlags(path, O_RDONLY_CLOEXEC);
  }

  private int openWithFlags(Path path, int flags) {
    try (Arena scratch = Arena.ofConfined()) {
      // The name's own bytes, not path.toString() re-encoded: that is another name when it is not UTF-8.
      byte[] name = PathBytes.of(path);
      MemorySegment cPath = scratch.allocate(name.length + 1L);
      MemorySegment.copy(name, 0, cPath, JAVA_BYTE, 0, name.length);
      long fd = call("open", numbers.openat(), AT_FDCWD, cPath.address(), flags, 0, 0, 0);
      if (fd == -1) {
        throw failure("open(" + path + ")", "check that the file exists and is readable");
      }
      return (int) fd;
    }
  }

  /** Writes {@code fd}'s dirty pages to the disk, so that they can be dropped from the page cache. */
  void fdatasync(int fd, String path) {
    if (call("fdatasync", numbers.fdatasync(), fd, 0, 0, 0, 0, 0) == -1) {
      throw failure("fdatasync(" + path + ")", "check that the file system accepts writes and has room");
    }
  }

  /** {@code posix_fadvise(fd, offset, length, advice)}, as the fadvise64 system call. */
  void posixFadvise(int fd, long offset, long length, int advice, String path) {
    if (call("posix_fadvise", numbers.fadvise64(), fd, offset, length, advice, 0, 0) == -1) {
      throw failure("posix_fadvise(" + path + ")", "pass a regular file");
    }
  }

  /** Teardown of a read-only descriptor: nothing was written, so a failed close loses nothing. */
  void close(int fd) {
    call("close", numbers.close(), fd, 0, 0, 0, 0, 0);
  }

  private PipelineException failure(String name, String fix) {
    int errno = (int) ERRNO.get(errnoState, 0L);
    return PipelineException.ioUringSyscall(name, errno, Errno.name(errno) + ": " + fix);
  }

  private static PipelineException nativeFailure(String name, Throwable e) {
    if (e instanceof PipelineException pipeline) {
      return pipeline;
    }
    // A missing libc symbol surfaces as a handle holder's failed initialisation.
    return e.getCause() instanceof PipelineException cause ? cause
        : PipelineException.backend("native call " + name + " failed: " + e, e);
  }
}

package dev.vyre.io.uring;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
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
import java.util.Arrays;
import java.util.Locale;

/**
 * The libc calls io_uring needs, through FFM: {@code syscall} (for io_uring_setup, _enter and
 * _register, which glibc does not wrap), {@code mmap}, {@code munmap}, {@code open} (with
 * {@code lseek} and {@code fcntl}) and {@code close}; and, to drop a file's cached pages,
 * {@code fdatasync} and {@code posix_fadvise}.
 * Each call captures {@code errno} into this instance's own state segment, so an instance belongs
 * to one thread at a time. A failed call throws {@link PipelineException} ({@code IoUringSyscall})
 * with the syscall's name and errno.
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
  private static final int SEEK_CUR = 1;
  private static final int F_SETFL = 4;
  /** lseek's errno on a FIFO or a socket, which have no file offset. */
  static final int ESPIPE = 29;

  private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
  private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

  // Downcall handles in three holders by use, each built on first use: linking a call spins a stub class,
  // a start-up cost worth paying only for calls the process makes (a FileChannel reader makes only the
  // file calls). Building them fails off Linux/glibc, which nativeFailure turns into NotLinux.

  /** io_uring's: its syscalls and the ring's mapping. */
  private static final class RingHandles {
    static final MethodHandle SYSCALL = downcall("syscall",
        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
        Linker.Option.firstVariadicArg(1));
    static final MethodHandle MMAP = downcall("mmap",
        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    static final MethodHandle MUNMAP = downcall("munmap", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
  }

  /** Every reader's: opening a listed file safely, and closing it. */
  private static final class FileHandles {
    static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
        Linker.Option.firstVariadicArg(2));
    static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    static final MethodHandle LSEEK = downcall("lseek", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT));
    static final MethodHandle FCNTL = downcall("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
        Linker.Option.firstVariadicArg(2));
  }

  /** Dropping a file's cached pages (cold benchmarks only). */
  private static final class CacheHandles {
    static final MethodHandle FDATASYNC = downcall("fdatasync", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    static final MethodHandle POSIX_FADVISE = downcall("posix_fadvise",
        FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
  }

  private static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    Linker linker = Linker.nativeLinker();
    MemorySegment symbol = linker.defaultLookup().find(name).orElseThrow(PipelineException::notLinux);
    Linker.Option[] all = Arrays.copyOf(options, options.length + 1);
    all[options.length] = Linker.Option.captureCallState("errno");
    return linker.downcallHandle(symbol, descriptor, all);
  }

  private final MemorySegment errnoState;

  /** The state segment lives in {@code arena}, which must outlive every call. */
  LinuxCalls(Arena arena) {
    if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
      throw PipelineException.notLinux();
    }
    this.errnoState = arena.allocate(CAPTURE);
  }

  /** {@code syscall(number, a1, a2, a3, a4, a5, a6)}; returns the non-negative result. */
  long syscall(String name, long number, long a1, long a2, long a3, long a4, long a5, long a6, String fix) {
    long result;
    try {
      result = (long) RingHandles.SYSCALL.invokeExact(errnoState, number, a1, a2, a3, a4, a5, a6);
    } catch (Throwable e) {
      throw nativeFailure(name, e);
    }
    if (result == -1) {
      throw failure(name, fix);
    }
    return result;
  }

  /** Maps {@code length} bytes of {@code fd} at {@code offset}, shared and populated. */
  MemorySegment mmap(String what, long length, int fd, long offset) {
    long address;
    try {
      address = (long) RingHandles.MMAP.invokeExact(errnoState, 0L, length, PROT_READ_WRITE, MAP_SHARED_POPULATE, fd,
          offset);
    } catch (Throwable e) {
      throw nativeFailure("mmap", e);
    }
    if (address == -1) {
      throw failure("mmap(" + what + ")", "raise the locked-memory limit (ulimit -l) or use fewer ring entries");
    }
    return MemorySegment.ofAddress(address).reinterpret(length);
  }

  /** Teardown: a failure leaves nothing the caller could repair, so its result is not checked. */
  void munmap(MemorySegment mapping) {
    try {
      int ignored = (int) RingHandles.MUNMAP.invokeExact(errnoState, mapping.address(), mapping.byteSize());
    } catch (Throwable e) {
      throw nativeFailure("munmap", e);
    }
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
    long offset;
    try {
      offset = (long) FileHandles.LSEEK.invokeExact(errnoState, fd, 0L, SEEK_CUR);
    } catch (Throwable e) {
      throw nativeFailure("lseek", e);
    }
    if (offset < 0) {
      throw failure("open(" + path + ")", "pass a regular file: a FIFO or a socket has no offsets to read at");
    }
  }

  /** Makes reads of {@code fd} blocking again: F_SETFL with 0 clears O_NONBLOCK (the access mode stays). */
  void clearNonBlocking(int fd, String what) {
    int flags;
    try {
      flags = (int) FileHandles.FCNTL.invokeExact(errnoState, fd, F_SETFL, 0);
    } catch (Throwable e) {
      throw nativeFailure("fcntl", e);
    }
    if (flags < 0) {
      throw failure("fcntl(" + what + ", F_SETFL)", "report this: a descriptor just opened refused its flags");
    }
  }

  /** A plain blocking open of any kind of file, for tests that read a FIFO on purpose. */
  int openUnchecked(Path path) {
    return openWithFlags(path, O_RDONLY_CLOEXEC);
  }

  private int openWithFlags(Path path, int flags) {
    int fd;
    try (Arena scratch = Arena.ofConfined()) {
      // The name's own bytes, not path.toString() re-encoded: that is another name when it is not UTF-8.
      byte[] name = PathBytes.of(path);
      MemorySegment cPath = scratch.allocate(name.length + 1L);
      MemorySegment.copy(name, 0, cPath, JAVA_BYTE, 0, name.length);
      fd = (int) FileHandles.OPEN.invokeExact(errnoState, cPath, flags, 0);
    } catch (Throwable e) {
      throw nativeFailure("open", e);
    }
    if (fd < 0) {
      throw failure("open(" + path + ")", "check that the file exists and is readable");
    }
    return fd;
  }

  /** Writes {@code fd}'s dirty pages to the disk, so that they can be dropped from the page cache. */
  void fdatasync(int fd, String path) {
    int result;
    try {
      result = (int) CacheHandles.FDATASYNC.invokeExact(errnoState, fd);
    } catch (Throwable e) {
      throw nativeFailure("fdatasync", e);
    }
    if (result != 0) {
      throw failure("fdatasync(" + path + ")", "check that the file system accepts writes and has room");
    }
  }

  /**
   * {@code posix_fadvise(fd, offset, length, advice)}, which returns its error number instead of
   * setting errno.
   */
  void posixFadvise(int fd, long offset, long length, int advice, String path) {
    int error;
    try {
      error = (int) CacheHandles.POSIX_FADVISE.invokeExact(errnoState, fd, offset, length, advice);
    } catch (Throwable e) {
      throw nativeFailure("posix_fadvise", e);
    }
    if (error != 0) {
      throw PipelineException.ioUringSyscall("posix_fadvise(" + path + ")", error, Errno.name(error)
          + ": pass a regular file");
    }
  }

  /** Teardown of a read-only descriptor: nothing was written, so a failed close loses nothing. */
  void close(int fd) {
    try {
      int ignored = (int) FileHandles.CLOSE.invokeExact(errnoState, fd);
    } catch (Throwable e) {
      throw nativeFailure("close", e);
    }
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

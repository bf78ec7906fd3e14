package dev.vyre.io.uring;

import dev.vyre.driver.error.PipelineException;
import java.lang.foreign.Arena;
import java.nio.file.Path;

/**
 * File descriptors for code outside this package, which keeps FFM to itself: the files the IO
 * request pump reads through {@link IoUringRangeReader}, and dropping a file's pages from the page
 * cache, so that a measurement reads it from the disk ({@code vyre bench io --cold}).
 */
public final class LinuxFiles {

  /** {@code <fcntl.h>}: the pages of the range are not needed again soon; clean ones are dropped. */
  private static final int POSIX_FADV_DONTNEED = 4;

  private LinuxFiles() {}

  /**
   * Opens {@code file} read-only; the caller closes the descriptor with {@link #close}.
   *
   * @throws PipelineException ({@code IoUringSyscall}) with the errno when it cannot be opened
   */
  public static int openReadOnly(Path file) {
    try (Arena arena = Arena.ofConfined()) {
      return new LinuxCalls(arena).open(file);
    }
  }

  /** Closes a descriptor {@link #openReadOnly} gave. */
  public static void close(int fd) {
    try (Arena arena = Arena.ofConfined()) {
      new LinuxCalls(arena).close(fd);
    }
  }

  /**
   * Drops {@code file}'s pages from the page cache, so that the next reads of it come from the disk:
   * fdatasync first, since dirty pages cannot be dropped, then
   * {@code posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)} over the whole file. Needs no privilege;
   * pages that a process has mapped stay.
   *
   * @throws PipelineException ({@code IoUringSyscall}) with the errno of the call that failed
   */
  public static void evictFromPageCache(Path file) {
    try (Arena arena = Arena.ofConfined()) {
      LinuxCalls calls = new LinuxCalls(arena);
      int fd = calls.open(file);
      try {
        calls.fdatasync(fd, file.toString());
        calls.posixFadvise(fd, 0, 0, POSIX_FADV_DONTNEED, file.toString());
      } finally {
        calls.close(fd);
      }
    }
  }
}

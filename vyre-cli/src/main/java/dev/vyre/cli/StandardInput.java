package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * What {@code vyre scan} reads for the operand {@code -}, for {@code -f -}, and when no PATH is
 * given and stdin holds data, as grep does.
 *
 * @param stream the bytes
 * @param data stdin holds data: a pipe, a socket or a regular file, not a terminal or a device
 *     such as /dev/null (ripgrep's rule, so that a scan started from a terminal, cron or a script
 *     with stdin closed still scans the current directory)
 * @param file a path that opens stdin's file from its start, when stdin is a regular file read
 *     from its start ({@code vyre scan X < FILE}): scanned in place, not copied; else null
 */
record StandardInput(InputStream stream, boolean data, Path file) {

  /** Stdin that is no regular file read from its start. */
  StandardInput(InputStream stream, boolean data) {
    this(stream, data, null);
  }

  // st_mode's file types (sys/stat.h).
  private static final int TYPE_MASK = 0170000;
  private static final int FIFO = 0010000;
  private static final int REGULAR = 0100000;
  private static final int SOCKET = 0140000;

  /** This process's stdin; whether it holds data is read from /proc/self/fd/0 (false where that fails). */
  static StandardInput process() {
    Path descriptor = Path.of("/proc/self/fd/0");
    int type;
    try {
      type = (Integer) Files.getAttribute(descriptor, "unix:mode") & TYPE_MASK;
    } catch (IOException | RuntimeException unknown) {
      return new StandardInput(System.in, false);
    }
    // Opening /proc/self/fd/0 opens the file anew, at offset 0: right only if nothing was read from it yet
    // (grep reads from the offset it finds). Not closed: the channel is fd 0's.
    Path file = null;
    try {
      if (type == REGULAR && new FileInputStream(FileDescriptor.in).getChannel().position() == 0) {
        file = descriptor;
      }
    } catch (IOException unknown) {
      // Copied instead.
    }
    return new StandardInput(System.in, type == FIFO || type == REGULAR || type == SOCKET, file);
  }

  /**
   * Copies stdin into a new temporary file for the scan to read like any other (the scan reads
   * files in chunks by offset, with io_uring where it can, and a pipe has no offsets); the caller
   * deletes it. It is written whole before the scan starts, so a stdin that never ends is never
   * scanned.
   */
  Path copyToTemporaryFile() {
    if (file != null) {
      throw new IllegalStateException("stdin is the file " + file + ", scanned in place");
    }
    Path file = null;
    try {
      file = Files.createTempFile("vyre-scan-stdin-", ".tmp");
      // A scan stopped by Ctrl-C does not reach the caller's delete.
      file.toFile().deleteOnExit();
      Files.copy(stream, file, StandardCopyOption.REPLACE_EXISTING);
      return file;
    } catch (IOException e) {
      deleteQuietly(file);
      throw InputException.of(ScanFileNames.STANDARD_INPUT, "cannot be copied into a temporary file to scan (" + e + ")",
          "make room in the temporary directory (java.io.tmpdir, or JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=DIR), or save"
              + " the input to a file and scan that");
    }
  }

  /** Reads stdin whole, for {@code -f -}; at most {@code limit} bytes, or an error naming the limit. */
  byte[] readPatterns(long limit) {
    try {
      byte[] bytes = stream.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
      if (bytes.length > limit) {
        throw InputException.of(ScanFileNames.STANDARD_INPUT, "-f - got more than " + limit + " bytes of patterns",
            "split the patterns into several files and scan once per file");
      }
      return bytes;
    } catch (IOException e) {
      throw InputException.of(ScanFileNames.STANDARD_INPUT, "cannot read the patterns of -f - (" + e + ")",
          "pass the patterns in a file with -f FILE");
    }
  }

  static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // A temporary file left behind is the temporary directory's to clean; the scan's answer stands.
      }
    }
  }
}

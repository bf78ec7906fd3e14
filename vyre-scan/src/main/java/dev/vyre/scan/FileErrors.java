package dev.vyre.scan;

import dev.vyre.driver.error.PipelineException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;

/**
 * Turns a chunk reader's open or read failure into the short reason grep prints ("No such file or
 * directory", "Permission denied", "Is a directory"), the same whichever reader failed: io_uring
 * reports an errno, FileChannel an {@link IOException}.
 */
final class FileErrors {

  private FileErrors() {}

  static String reason(PipelineException e) {
    if (e.fields().get("errno") instanceof Long errno) {
      return switch (errno.intValue()) {
        case 1 -> "Operation not permitted";
        case 2 -> "No such file or directory";
        case 5 -> "Input/output error";
        case 13 -> "Permission denied";
        case 21 -> "Is a directory";
        case 24 -> "Too many open files";
        case 40 -> "Too many levels of symbolic links";
        // The readers' open refuses a FIFO or a socket (swapped in after the walk) with lseek's ESPIPE.
        case 29 -> "not a regular file (a FIFO or a socket, which has no offsets to read at)";
        default -> e.getMessage();
      };
    }
    return switch (e.getCause()) {
      case NoSuchFileException missing -> "No such file or directory";
      case AccessDeniedException denied -> "Permission denied";
      case IOException io when io.getMessage() != null -> io.getMessage();
      case null, default -> e.getMessage();
    };
  }
}

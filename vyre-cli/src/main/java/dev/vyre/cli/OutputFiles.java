package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Checks the files a long command writes its results to before the work starts, so that a
 * benchmark of minutes does not end in an error about its output file.
 */
public final class OutputFiles {

  private OutputFiles() {}

  /** Refuses {@code file} (given as {@code option}) unless it can be created or overwritten; leaves no new file behind. */
  public static void requireWritable(String option, Path file) {
    if (file == null) {
      return;
    }
    if (Files.isDirectory(file)) {
      throw refused(option, file, "is a directory");
    }
    boolean existed = Files.exists(file);
    try {
      Files.newByteChannel(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE).close();
      if (!existed) {
        Files.delete(file);
      }
    } catch (NoSuchFileException e) {
      throw refused(option, file, "its directory does not exist");
    } catch (AccessDeniedException e) {
      throw refused(option, file, "permission denied");
    } catch (IOException e) {
      throw refused(option, file, e.getMessage());
    }
  }

  private static InputException refused(String option, Path file, String why) {
    return InputException.of(option, file + " cannot be written (" + why + ")",
        "pass a file path in a directory you can write to");
  }
}

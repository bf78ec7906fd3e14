package dev.vyre.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

/** Files with the modification times a test needs (the launcher's and the client's stale-jar checks compare them). */
final class FileTimes {

  private FileTimes() {}

  /** Creates {@code file} (empty, with its directories) if it is missing, and sets its modification time. */
  static Path touch(Path file, Instant time) throws IOException {
    Files.createDirectories(file.getParent());
    if (!Files.exists(file)) {
      Files.writeString(file, "");
    }
    Files.setLastModifiedTime(file, FileTime.from(time));
    return file;
  }
}

package dev.vyre.scan;

import dev.vyre.driver.error.InputException;
import java.nio.file.Path;

/**
 * A regular file to scan, and its size when it was found; {@link ScanTargets} lists them. A scan
 * may cover only the bytes {@code [from, to)} of it ({@link #range}): it then reports the matches
 * that end in those bytes, reading the longest pattern's length - 1 bytes before {@code from} so
 * that a match that starts earlier is still found. Ranges that tile a file report each of its
 * matches once, as a scan of the whole file does; a job that scans a file in pieces on several
 * machines cuts it so.
 *
 * @param path the name output shows, as the user gave it or the walk found it
 * @param location where the file is opened: {@code path} itself, or {@code path} resolved against
 *     another process's working directory (a scan run by {@code vyre serve} for a client)
 * @param from the first byte scanned for match ends; 0 for the whole file
 * @param to the end of those bytes (exclusive); {@code size} for the whole file
 */
public record ScanFile(Path path, long size, Path location, long from, long to) {

  public ScanFile {
    if (from < 0 || to < from || to > size) {
      throw InputException.of(path.toString(), "bytes " + from + ".." + to + " are not a range of a file of " + size
          + " bytes", "pass a range with 0 <= from <= to <= the file's size");
    }
  }

  /** The whole file. */
  public ScanFile(Path path, long size, Path location) {
    this(path, size, location, 0, size);
  }

  /** The whole file, opened where it is named. */
  public ScanFile(Path path, long size) {
    this(path, size, path);
  }

  /** The bytes {@code [from, to)} of this file: a scan reports the matches that end in them. */
  public ScanFile range(long from, long to) {
    return new ScanFile(path, size, location, from, to);
  }
}

package dev.vyre.scan;

import java.nio.file.Path;

/**
 * A regular file to scan, and its size when it was found; {@link ScanTargets} lists them.
 *
 * @param path the name output shows, as the user gave it or the walk found it
 * @param location where the file is opened: {@code path} itself, or {@code path} resolved against
 *     another process's working directory (a scan run by {@code vyre serve} for a client)
 */
public record ScanFile(Path path, long size, Path location) {

  public ScanFile(Path path, long size) {
    this(path, size, path);
  }
}

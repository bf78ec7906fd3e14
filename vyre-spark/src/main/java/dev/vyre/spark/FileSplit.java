package dev.vyre.spark;

import dev.vyre.scan.ScanFile;
import java.io.Serializable;
import java.nio.file.Path;

/**
 * The bytes {@code [from, to)} of a file of {@code size} bytes, as the driver listed it: one piece of
 * a scan that a Spark task runs. A split owns the matches that end in it ({@link ScanFile#range}), so
 * the splits of a file report each of its matches once.
 *
 * @param path the file's name, as the walk found it; every executor opens it by this name
 */
public record FileSplit(String path, long size, long from, long to) implements Serializable {

  /** What the scan engine reads: this range of the file. */
  public ScanFile toScanFile() {
    return new ScanFile(Path.of(path), size).range(from, to);
  }
}

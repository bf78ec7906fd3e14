package dev.vyre.scan;

import java.nio.file.Path;

/** A regular file to scan, and its size when it was found; {@link ScanTargets} lists them. */
public record ScanFile(Path path, long size) {}

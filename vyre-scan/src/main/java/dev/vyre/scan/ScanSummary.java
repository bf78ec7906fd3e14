package dev.vyre.scan;

/**
 * What one {@link ScanJob#run} did: files passed, files that failed (reported with their error),
 * bytes scanned, matches found, chunks rescanned because their hits overflowed, and wall time.
 */
public record ScanSummary(int files, int failedFiles, long bytes, long matches, long rescans, long nanos) {

  /** Scanned bytes per second, in GB (10^9 bytes). */
  public double gigabytesPerSecond() {
    return nanos == 0 ? 0 : (double) bytes / nanos;
  }
}

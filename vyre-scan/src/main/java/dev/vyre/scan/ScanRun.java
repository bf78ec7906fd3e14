package dev.vyre.scan;

import java.util.List;

/**
 * A scan that {@code vyre scan} drives and prints: a {@link ScanJob}, which reads the files, or a
 * {@link ResidentScan}, which scans them where a {@link ResidentCorpus} holds them in device
 * memory. Both hand the same results to the same {@link ScanSink}.
 */
public interface ScanRun extends AutoCloseable {

  /** Scans {@code targets}, passing each file's matches and result to {@code sink} in the order given. */
  ScanSummary run(List<ScanFile> targets, ScanSink sink);

  /** Ends the run early: no further file reaches the sink. Any thread may call it. */
  void stop();

  /** Bytes scanned so far in the current run; safe to read from another thread. */
  long bytesScanned();

  /** Where the last run's thread spent its time. */
  ScanPhases phases();

  /** Where the bytes come from, for {@code --verbose}. */
  String ioBackend();

  @Override
  void close();
}

package dev.vyre.cli;

import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * The progress line of a long {@code vyre scan}: after the first second, and only on a terminal,
 * rewrites one stderr line every 250 ms with bytes scanned, percent and rate, and erases it when
 * the scan ends, so that short scans and redirected output see nothing. Results printed to the same
 * terminal go through {@link #printing}, which erases the line first.
 */
final class ScanProgress implements AutoCloseable {

  private static final long QUIET_NANOS = 1_000_000_000L;
  private static final long INTERVAL_MILLIS = 250;
  private static final String CLEAR_LINE = "\r\u001b[K";

  private final LongSupplier scanned;
  private final long total;
  private final PrintStream err;
  private final Thread thread;
  private final long started = System.nanoTime();
  private volatile boolean done;
  private boolean shown;

  private ScanProgress(LongSupplier scanned, long total, PrintStream err, boolean active) {
    this.scanned = scanned;
    this.total = total;
    this.err = err;
    this.thread = active ? Thread.ofPlatform().daemon().name("vyre-scan-progress").start(this::loop) : null;
  }

  /** Starts the progress line when stderr is a terminal. */
  static ScanProgress start(LongSupplier scanned, long total, PrintStream err) {
    return start(scanned, total, err, Terminal.isTerminal(Terminal.STDERR));
  }

  static ScanProgress start(LongSupplier scanned, long total, PrintStream err, boolean terminal) {
    return new ScanProgress(scanned, total, err, terminal);
  }

  /**
   * Runs {@code print}, which writes to the terminal this line is on (and flushes), with the line
   * erased first; the next tick draws it again below.
   */
  void printing(Runnable print) {
    if (thread == null) {
      print.run();
      return;
    }
    synchronized (err) {
      if (shown) {
        err.print(CLEAR_LINE);
        err.flush();
        shown = false;
      }
      print.run();
    }
  }

  private void loop() {
    while (!done) {
      try {
        Thread.sleep(INTERVAL_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      long elapsed = System.nanoTime() - started;
      if (!done && elapsed > QUIET_NANOS) {
        synchronized (err) {
          err.print(CLEAR_LINE + line(scanned.getAsLong(), total, elapsed));
          err.flush();
          shown = true;
        }
      }
    }
  }

  /** One progress line: a 30-column bar, MB scanned of total, percent and GB/s. */
  static String line(long bytes, long total, long elapsedNanos) {
    double fraction = total == 0 ? 1 : Math.min(1, (double) bytes / total);
    int filled = (int) (fraction * 30);
    return String.format("vyre scan [%s%s] %,d / %,d MB (%.0f%%) %.2f GB/s", "#".repeat(filled), " ".repeat(30 - filled),
        bytes >> 20, total >> 20, fraction * 100, elapsedNanos == 0 ? 0 : (double) bytes / elapsedNanos);
  }

  @Override
  public void close() {
    done = true;
    if (thread == null) {
      return;
    }
    thread.interrupt();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (err) {
      if (shown) {
        err.print(CLEAR_LINE);
        err.flush();
      }
    }
  }
}

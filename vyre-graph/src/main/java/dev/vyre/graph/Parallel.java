package dev.vyre.graph;

import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/** Splits an index range into pieces and runs them on the common fork-join pool. */
final class Parallel {

  /** The body of a loop over {@code [from, to)}. */
  @FunctionalInterface
  interface Range {
    void run(long from, long to);
  }

  private Parallel() {}

  /**
   * Runs {@code body} over {@code [0, total)} in pieces of at least {@code grain} indices, at most
   * eight a worker: more pieces than workers so a skewed piece (a hub vertex) does not leave the
   * others idle, few enough that scheduling stays cheap.
   */
  static void forRanges(long total, long grain, Range body) {
    if (total <= 0) {
      return;
    }
    long maxPieces = 8L * Math.max(1, ForkJoinPool.getCommonPoolParallelism());
    long pieces = Math.max(1, Math.min(maxPieces, (total + grain - 1) / grain));
    if (pieces == 1) {
      body.run(0, total);
      return;
    }
    long step = (total + pieces - 1) / pieces;
    int count = (int) ((total + step - 1) / step);
    IntStream.range(0, count).parallel().forEach(k -> body.run(k * step, Math.min(total, (k + 1) * step)));
  }
}

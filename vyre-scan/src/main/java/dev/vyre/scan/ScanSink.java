package dev.vyre.scan;

import java.util.function.Consumer;

/**
 * Where a {@link ScanJob} hands what it finds, as it finds it, so that memory is bounded by the
 * chunks in flight rather than by a file's match count.
 *
 * <p>When the job keeps hits ({@link ScanOptions#keepHits()}), {@link #found} gets each chunk's
 * matches sorted by offset, after every earlier match of the file and after the {@link #finished}
 * of every earlier file: files are passed in the order given, each one's matches in offset order,
 * then its result. When the job only counts, {@code hits} is null and {@link #found} comes as each
 * chunk finishes, in any order across chunks and files, but before that file's {@link #finished}.
 */
public interface ScanSink {

  /**
   * Matches found in {@code file}.
   *
   * @param hits these matches, sorted by offset, as a view valid during the call only (not to be
   *     changed); null when the job only counts
   * @param total the file's matches so far, these included
   * @return false when the sink needs no more of this file (its first {@code -m} matches, or its
   *     first match for {@code -l}): the file is read no further, its chunks in flight are dropped,
   *     and its result comes next with the matches passed on so far
   */
  boolean found(ScanFile file, HitList hits, long total);

  /**
   * The file is done: its match count (those passed to {@link #found}) and its error, if any. Its
   * {@link FileResult#hits()} is null: the matches went to {@link #found}.
   */
  void finished(FileResult result);

  /**
   * A sink that gathers each file's matches into its {@link FileResult} (null hits when the job
   * only counts), for callers that want every match of a file at once: its heap grows with a
   * file's matches, which a sink that streams them avoids.
   */
  public static ScanSink collecting(boolean keepHits, Consumer<FileResult> results) {
    return new ScanSink() {
      private HitList hits = keepHits ? new HitList() : null;

      @Override
      public boolean found(ScanFile file, HitList found, long total) {
        if (found != null) {
          hits.addAll(found);
        }
        return true;
      }

      @Override
      public void finished(FileResult result) {
        results.accept(new FileResult(result.file(), result.inputId(), result.matches(), hits, result.error(),
            result.unreadable(), result.openFailed()));
        hits = keepHits ? new HitList() : null;
      }
    };
  }
}

package dev.vyre.scan;

/**
 * One file while a {@link ScanJob} scans it: its read and task plans, the next chunk to read,
 * how many chunk buffers hold its data, and what was found so far. Used by the job's thread only.
 */
final class FileScan {

  final ScanFile file;
  final int inputId;
  final ChunkPlanner reads;
  final ChunkPlanner tasks;
  final HitList hits;
  long matches;
  String error;
  /** The error is an open or read failure (see {@link FileResult#unreadable()}). */
  boolean unreadable;
  /** The error is an open failure (see {@link FileResult#openFailed()}). */
  boolean openFailed;
  /** The chunk reader's handle while the file is open, else -1. */
  int handle = -1;
  long nextChunk;
  int readsInFlight;
  /** Chunk buffers holding this file's data: being read, or being scanned. */
  int buffersHeld;

  FileScan(ScanFile file, int inputId, ScanOptions options, int overlap) {
    this.file = file;
    this.inputId = inputId;
    this.reads = new ChunkPlanner(file.size(), options.chunkBytes(), overlap);
    this.tasks = new ChunkPlanner(file.size(), options.taskBytes(), overlap);
    this.hits = options.keepHits() ? new HitList() : null;
    if (file.size() >= HitList.MAX_START) {
      error = "the file is " + file.size() + " bytes; vyre scan reads files below 8 TiB";
    }
  }

  void hit(long start, int patternId) {
    matches++;
    if (hits != null) {
      hits.add(start, patternId);
    }
  }

  /** Records the first failure; the file reads no further chunks. */
  void fail(String reason) {
    if (error == null) {
      error = reason;
    }
  }

  /** Records the first failure, an open or read failure. */
  void failUnreadable(String reason) {
    if (error == null) {
      error = reason;
      unreadable = true;
    }
  }

  /** Records that the file could not be opened. */
  void failToOpen(String reason) {
    if (error == null) {
      failUnreadable(reason);
      openFailed = true;
    }
  }

  boolean moreToRead() {
    return error == null && nextChunk < reads.chunkCount();
  }

  /** Nothing left to read and no buffer holds its data: its result is final. */
  boolean finished() {
    return !moreToRead() && buffersHeld == 0;
  }

  FileResult result() {
    if (hits != null) {
      hits.sort();
    }
    return new FileResult(file, inputId, matches, hits, error, unreadable, openFailed);
  }
}

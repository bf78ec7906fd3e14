package dev.vyre.scan;

/**
 * One file while a {@link ScanJob} scans it: its read and task plans, the next chunk to read,
 * how many chunk buffers hold its data, and how many matches were passed on so far (the matches
 * themselves go to the job's {@link ScanSink} chunk by chunk). Used by the job's thread only.
 *
 * <p>A file listed with size 0 is read to its end instead: procfs, sysfs and some FUSE files say 0
 * and still hold bytes ({@code /proc/cpuinfo}). Its plans run to {@link HitList#MAX_START}, its chunks
 * are read one at a time, and the first read that returns fewer bytes than asked ends it.
 */
final class FileScan {

  final ScanFile file;
  final int inputId;
  /** Listed with size 0: read chunk after chunk until a short read, not as far as the size says. */
  final boolean toEndOfFile;
  final ChunkPlanner reads;
  final ChunkPlanner tasks;
  /** Matches passed to the sink so far. */
  long matches;
  /** The sink needs no more of it: no further chunk is read, and chunks in flight are dropped. */
  boolean stopped;
  String error;
  /** The error is an open or read failure (see {@link FileResult#unreadable()}). */
  boolean unreadable;
  /** The error is an open failure (see {@link FileResult#openFailed()}). */
  boolean openFailed;
  /** The chunk reader's handle while the file is open, else -1. */
  int handle = -1;
  long nextChunk;
  int readsInFlight;
  /** Chunk buffers holding this file's data: being read, being scanned, or waiting to be passed on. */
  int buffersHeld;
  /** Its chunks whose tasks finished so far. */
  long scannedChunks;
  /** A file read to its end: a read came back short, so there is no further chunk. */
  boolean endReached;

  FileScan(ScanFile file, int inputId, ScanOptions options, int overlap) {
    this.file = file;
    this.inputId = inputId;
    this.toEndOfFile = file.size() == 0;
    // An empty regular file costs one read that returns nothing, as it does grep.
    long end = toEndOfFile ? HitList.MAX_START : file.to();
    this.reads = new ChunkPlanner(file.from(), end, options.chunkBytes(), overlap);
    this.tasks = new ChunkPlanner(file.from(), end, options.taskBytes(), overlap);
    if (file.size() >= HitList.MAX_START) {
      error = "the file is " + file.size() + " bytes; vyre scan reads files below 8 TiB";
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
    return error == null && !stopped && !endReached && nextChunk < reads.chunkCount();
  }

  /** Whether its next chunk must wait for the read in flight, which may find the end of the file. */
  boolean waitsForRead() {
    return toEndOfFile && readsInFlight > 0;
  }

  /**
   * Takes a finished read of {@code chunk} that returned {@code bytesRead} bytes. A file read to its
   * end ends at a short read, and fails at 8 TiB, past which its hits cannot be reported.
   */
  void read(ChunkPlanner.Chunk chunk, int bytesRead) {
    if (!toEndOfFile) {
      return;
    }
    if (bytesRead < chunk.readLength()) {
      endReached = true;
    } else if (chunk.readOffset() + bytesRead >= HitList.MAX_START) {
      fail("the file is at least " + HitList.MAX_START + " bytes; vyre scan reads files below 8 TiB");
    }
  }

  /**
   * Whether its next chunk waits until more of its chunks were scanned: a file starts with one
   * chunk in flight and may have twice as many as were scanned, so that a sink that has its answer
   * early ({@code -m}, {@code -l}, {@code -q}) stops a file after a chunk or two, not after every
   * buffer's worth; a file that goes on fills every buffer after a few chunks.
   */
  boolean rampsUp() {
    return buffersHeld > 2 * scannedChunks;
  }

  /** Nothing left to read and no buffer holds its data: its result is final. */
  boolean finished() {
    return !moreToRead() && buffersHeld == 0;
  }

  FileResult result() {
    return new FileResult(file, inputId, matches, null, error, unreadable, openFailed);
  }
}

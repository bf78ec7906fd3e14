package dev.vyre.scan;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;
import dev.vyre.io.IoBackends;
import dev.vyre.io.ReadCompletion;
import dev.vyre.runtime.ThreadEnds;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The threads of a {@link ScanJob} that read packs: chunk buffers the job's thread filled with
 * several small whole files ({@link ChunkSlot} segments), each file opened, read into its place and
 * closed by one of these threads, so that a tree's opens and copies run on several cores instead
 * of file after file in the job's thread. Each thread reads one pack at a time with a {@link
 * ChunkReader} of its own over the job's buffers (io_uring where it works, so files are opened in
 * batches, as the job's own reader opens them), and hands the pack back whole; the job's thread
 * owns a pack's slot and files again only once {@link #poll} returned it. Threads start as packs
 * wait for them, up to {@link ScanOptions#packReaders()}, and stop when the job closes.
 */
final class PackReaders implements AutoCloseable {

  /** The index that tells a thread to stop. */
  private static final int STOP = -1;
  /** Files of a pack open at once: as many as the io_uring reader opens ahead, half the files it holds open. */
  static final int GROUP = 32;

  private final ChunkSlot[] slots;
  private final List<MemorySegment> buffers;
  private final int maxThreads;
  private final LinkedBlockingQueue<Integer> toRead = new LinkedBlockingQueue<>();
  private final ConcurrentLinkedQueue<ChunkSlot> finished = new ConcurrentLinkedQueue<>();
  private final List<Thread> threads = new ArrayList<>();
  /** What a thread failed with outside any one file's open or read: the job fails with it. */
  private volatile RuntimeException failure;
  /** Packs submitted and not yet returned by {@link #poll}; the job's thread's alone. */
  private int inFlight;

  PackReaders(ChunkSlot[] slots, List<MemorySegment> buffers, int maxThreads) {
    this.slots = slots;
    this.buffers = buffers;
    this.maxThreads = maxThreads;
  }

  /** Hands a pack to the threads; its slot and its segments' files are theirs until {@link #poll} returns it. */
  void submit(ChunkSlot pack) {
    inFlight++;
    toRead.add(pack.index);
    if (threads.size() < maxThreads && threads.size() < inFlight) {
      Thread thread = Thread.ofPlatform().daemon().name("vyre-scan-pack-" + threads.size()).unstarted(this::readPacks);
      threads.add(thread);
      thread.start();
    }
  }

  /**
   * A pack whose files were all read (or failed), or null when none came back yet.
   *
   * @throws RuntimeException what a thread failed with, outside one file's open or read
   */
  ChunkSlot poll() {
    RuntimeException failed = failure;
    if (failed != null) {
      throw failed;
    }
    ChunkSlot pack = finished.poll();
    if (pack != null) {
      inFlight--;
    }
    return pack;
  }

  /** Packs being read or read and not yet returned. */
  int inFlight() {
    return inFlight;
  }

  private void readPacks() {
    // Unregistered: registering every buffer would cost a small job more than its reads.
    try (ChunkReader reader = IoBackends.openUnregistered(BufferPool.of(buffers))) {
      while (true) {
        int index = toRead.take();
        if (index == STOP) {
          return;
        }
        read(reader, slots[index], true);
        finished.add(slots[index]);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
    } catch (Error e) {
      failure = PipelineException.backend("a pack reader failed: " + e + ". Fix: report this bug", e);
    }
  }

  /**
   * Opens, reads and closes the segments' files of {@code pack} with {@code reader}, which has no
   * other read in flight, {@link #GROUP} files at a time: opened in order, read together ({@link
   * ChunkReader#readAll}: io_uring reads them with a call into the kernel for many), then closed.
   * With {@code openAhead} the reader is told of the files ahead, so that io_uring opens them in
   * batches too. A file that cannot be opened or read fails its segment alone.
   */
  static void read(ChunkReader reader, ChunkSlot pack, boolean openAhead) {
    ChunkSlot.Ranges ranges = pack.ranges;
    int expected = 0;
    int segment = 0;
    while (segment < pack.segments()) {
      int count = 0;
      for (; segment < pack.segments() && count < GROUP; segment++) {
        expected = Math.max(expected, segment);
        while (openAhead && expected < pack.segments() && reader.expect(pack.file(expected).file.location())) {
          expected++;
        }
        try {
          ranges.files[count] = reader.openFile(pack.file(segment).file.location());
        } catch (PipelineException e) {
          pack.failSegment(segment, FileErrors.reason(e), true);
          continue;
        }
        ChunkPlanner.Chunk chunk = pack.chunk(segment);
        ranges.segments[count] = segment;
        ranges.fileOffsets[count] = chunk.readOffset();
        ranges.lengths[count] = (int) chunk.readLength();
        ranges.bufferOffsets[count] = pack.bufferOffset(segment);
        count++;
      }
      try {
        reader.readAll(pack.index, count, ranges.files, ranges.fileOffsets, ranges.lengths, ranges.bufferOffsets,
            ranges.completions);
        for (int r = 0; r < count; r++) {
          ReadCompletion completion = ranges.completions[r];
          if (completion.failed()) {
            pack.failSegment(ranges.segments[r], "read failed at offset " + ranges.fileOffsets[r] + ": "
                + FileErrors.reason(completion.error()), false);
          } else {
            pack.readSegment(ranges.segments[r], completion.bytesRead());
          }
        }
      } finally {
        for (int r = 0; r < count; r++) {
          reader.closeFile(ranges.files[r]);
        }
      }
    }
  }

  /** Stops the threads once they have read the packs they hold (reads must not outlive the buffers), and waits for them. */
  @Override
  public void close() {
    toRead.clear();
    for (int i = 0; i < threads.size(); i++) {
      toRead.add(STOP);
    }
    ThreadEnds.await(threads.toArray(Thread[]::new));
    threads.clear();
  }
}

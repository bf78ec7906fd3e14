package dev.vyre.scan;

import dev.vyre.io.ChunkReader;
import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * How a {@link ScanJob} hands its results to its {@link ScanSink}: each chunk's hits, sorted by
 * offset, once every earlier chunk of the file was handed on, then the file's result, files in the
 * order they were given. Chunks finish out of order; one that finished early keeps its hits in its
 * hit buffer until its turn, so the heap holds one chunk's hits, not a file's. A sink that has its
 * answer for a file stops it here. Used by the job's thread only.
 */
final class InOrderDelivery {

  private final ChunkSlot[] slots;
  private final int overlap;
  private final BooleanSupplier stopping;
  private final Consumer<ChunkSlot> release;
  private final Consumer<FileScan> closeIfRead;
  /** The files opened and not yet passed on, in order. */
  final ArrayDeque<FileScan> pending = new ArrayDeque<>();
  private final HitOrder order = new HitOrder();
  private ScanSink sink;
  /** Files passed to the sink in this run, those of them that failed, and their matches. */
  int passed;
  int failedFiles;
  long matches;
  /** Time spent reading hits back and sorting them for the sink. */
  long hitNanos;

  /**
   * @param release frees a slot whose hits were handed on or dropped
   * @param closeIfRead closes a stopped file once no read of it is in flight
   */
  InOrderDelivery(ChunkSlot[] slots, int overlap, BooleanSupplier stopping, Consumer<ChunkSlot> release,
      Consumer<FileScan> closeIfRead) {
    this.slots = slots;
    this.overlap = overlap;
    this.stopping = stopping;
    this.release = release;
    this.closeIfRead = closeIfRead;
  }

  /** Starts a run that hands results to {@code sink}. */
  void start(ScanSink sink) {
    this.sink = sink;
    passed = failedFiles = 0;
    matches = hitNanos = 0;
    order.dropCarry();
  }

  /**
   * Hands on, in file order, every collected chunk of the first file not yet passed whose earlier
   * chunks were all handed on (or dropped), and every file whose chunks are all done, until the
   * sink stops the run or the next chunk is still in flight; returns how many chunks and files it
   * passed.
   */
  int passReady() {
    int steps = 0;
    while (!stopping.getAsBoolean() && !pending.isEmpty()) {
      FileScan head = pending.peek();
      if (head.finished()) {
        if (order.carried() > 0) {
          HitList rest = order.takeCarry();
          head.matches += rest.size();
          sink.found(head.file, rest, head.matches);
        }
        FileResult result = pending.poll().result();
        failedFiles += result.failed() ? 1 : 0;
        matches += result.matches();
        passed++;
        steps++;
        sink.finished(result);
        continue;
      }
      ChunkSlot next = nextChunk(head);
      if (next == null || !next.collected) {
        break;
      }
      pass(next);
      steps++;
    }
    return steps;
  }

  /**
   * The slot holding {@code file}'s earliest chunk not yet passed on: chunks are read in order, so
   * each one still to come is held by a slot.
   */
  private ChunkSlot nextChunk(FileScan file) {
    ChunkSlot next = null;
    for (ChunkSlot slot : slots) {
      if (slot.delivered < slot.segments() && slot.file(slot.delivered) == file
          && (next == null || slot.chunk(slot.delivered).index() < next.chunk(next.delivered).index())) {
        next = slot;
      }
    }
    return next;
  }

  /**
   * Passes on the next segment's hits of a collected slot, reading them back first; frees the slot
   * after its last segment. A single chunk carries the hits a later chunk may precede over to it.
   */
  private void pass(ChunkSlot slot) {
    long started = System.nanoTime();
    if (slot.delivered == 0) {
      slot.loadHits(order);
      slot.resetHits();
      slot.requireOwnHits();
    }
    int segment = slot.delivered;
    FileScan file = slot.file(segment);
    HitList hits;
    if (slot.segments() == 1) {
      ChunkPlanner.Chunk chunk = slot.chunk(0);
      boolean last = chunk.index() == file.reads.chunkCount() - 1;
      hits = order.view(0, last ? order.size() : order.carryFrom(chunk.readOffset() + chunk.readLength() - overlap));
    } else {
      hits = order.view(slot.hitsFrom(segment), slot.hitsFrom(segment + 1));
    }
    slot.delivered();
    hitNanos += System.nanoTime() - started;
    if (hits.size() > 0) {
      file.matches += hits.size();
      if (!sink.found(file.file, hits, file.matches)) {
        stopFile(file);
      }
    }
    if (slot.delivered == slot.segments()) {
      release.accept(slot);
    }
  }

  /** Adds a counted chunk's matches to its file's, and stops the file when the sink has its answer. */
  void counted(FileScan file, long count) {
    if (count > 0 && !file.stopped) {
      file.matches += count;
      if (!sink.found(file.file, null, file.matches)) {
        stopFile(file);
      }
    }
  }

  /**
   * Reads no more of {@code file} (its sink has its answer): forgets the hits it carries, frees the
   * collected chunks of it that wait, and closes it unless reads are in flight; chunks being read,
   * copied or scanned are dropped as they finish.
   */
  void stopFile(FileScan file) {
    file.stopped = true;
    if (!pending.isEmpty() && pending.peek() == file) {
      order.dropCarry();
    }
    for (ChunkSlot slot : slots) {
      if (slot.collected && slot.delivered < slot.segments() && slot.file(slot.delivered) == file) {
        slot.resetHits();
        release.accept(slot);
      }
    }
    closeIfRead.accept(file);
  }

  /**
   * After a stop, with no read in flight: frees the collected slots, forgets the hits carried over
   * and the files not passed on, and closes those left open.
   */
  void dropUnfinished(ChunkReader reader) {
    for (ChunkSlot slot : slots) {
      if (slot.collected) {
        slot.resetHits();
        release.accept(slot);
      }
    }
    order.dropCarry();
    for (FileScan file : pending) {
      if (file.handle >= 0) {
        reader.closeFile(file.handle);
        file.handle = -1;
      }
    }
    pending.clear();
  }
}

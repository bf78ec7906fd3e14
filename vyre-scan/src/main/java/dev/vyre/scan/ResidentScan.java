package dev.vyre.scan;

import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A scan of files a {@link ResidentCorpus} holds in device memory: DFA_STEP tasks over the corpus's
 * resources, no file read at all. Tasks are cut as a {@link ScanJob} cuts them ({@link
 * ScanOptions#taskBytes()}, each within one piece of a file) and published in batches of at most a
 * chunk's tasks and bytes, {@link ScanOptions#buffers()} batches in flight, each with its own hit
 * buffer; small files share a batch as they share a chunk in a job. Batches are collected in the
 * order they were published, so each file's matches reach the {@link ScanSink} in offset order, after
 * every earlier file's result, exactly as a job passes them: the same output. A batch whose hits
 * overflow its buffer is scanned again with a larger one.
 *
 * <p>A scan that only counts ({@code --count}, {@code -l}) publishes its tasks in DFA_STEP's count
 * mode: each adds its matches to its file's counter on the device ({@link MatchCounters}), no record
 * is written or read, and the host reads the counters back once per two windows of batches in flight
 * (a read costs a round trip while the rest of the window keeps the device busy) and at the end,
 * passing each file's count and result in order. With no hit buffer to size to a batch, its tasks
 * and batches are larger than a job's ({@link ResidentSizing}). Past {@code
 * -m}'s limit its count may be larger than a job's (the sink asked for no more after the limit;
 * {@code vyre scan} prints at most the limit either way).
 *
 * <p>{@link #open} refreshes the corpus and holds its lock until {@link #close}, so what is scanned
 * is what is on disk and no reload moves bytes under the tasks. Used by one thread.
 */
public final class ResidentScan implements ScanRun, HitResources.HitSink {

  private static final Duration TASK_TIMEOUT = Duration.ofMinutes(2);

  /** One batch of tasks in flight, and where in the files it begins and ends. */
  private static final class Batch {
    int taskCount;
    int hitHandle;
    long hitCapacity;
    long lastTicket = -1;
    int startFile;
    int startPiece;
    long startTask;
    int lastFile;
    /** The last file has tasks left for the next batch; its hits from {@link #ownedEnd} - overlap on are carried. */
    boolean lastContinues;
    long ownedEnd;
    long bytes;
  }

  private final ResidentCorpus corpus;
  private final Megakernel kernel;
  private final DfaTable table;
  private final ScanOptions options;
  private final int overlap;
  private final long packedBytes;
  /** Bytes per task ({@link ResidentSizing#taskBytes}) and the most per batch. */
  private final long taskBytes;
  private final int batchTasks;
  /** What became of promoting the scan's table at its start (a {@code --verbose} line). */
  private final String promotion;
  private final long batchBytes;
  private final int dfaHandle;
  private final HitResources hits;
  /** The per-file counters of a scan that only counts; null when it keeps hits. */
  private final MatchCounters counts;
  private final Batch[] batches;
  /**
   * The slots of the batch being filled, copied into the ring when it is published: one for all
   * batches, so that the host writes the tasks into memory still in its cache.
   */
  private final TaskBatch staging;
  private final ArrayDeque<Batch> free = new ArrayDeque<>();
  private final ArrayDeque<Batch> inFlight = new ArrayDeque<>();
  private final int[] args = new int[DfaStepArgs.SLOT_ARGS];
  private final HitOrder order = new HitOrder();
  private final ResidentCorpus.Refresh refresh;
  private long faultsSeen;
  private volatile boolean stopping;
  private volatile long bytesScanned;
  private long taskNanos;
  private long hitNanos;
  private long publishNanos;
  /** The kernel's ring-room waits when the scan began ({@link ScanPhases}). */
  private Megakernel.RoomWait roomWaitBefore = Megakernel.RoomWait.NONE;
  private boolean closed;

  // The current run: its files, where the next batch begins, and each file's state.
  private List<ScanFile> files;
  private ResidentCorpus.Entry[] entries;
  private long[] matches;
  private boolean[] stopped;
  private Map<Integer, String> errors;
  private int[] fileHits;
  private int nextFile;
  private int nextPiece;
  private long nextTask;
  private int passed;
  private int failedFiles;
  private long totalMatches;
  private long rescans;
  private ScanSink sink;
  private int firstOfBatch;
  private int lastOfBatch;
  private long foreignHits;
  private boolean placing;
  // A counting run: the first file whose result is not passed yet, the last file a collected batch
  // reached (and whether its tasks go on in a later batch), bytes collected since the last read.
  private int countedFrom;
  private int doneFile;
  private boolean doneContinues;
  private long unreadBytes;

  /**
   * Refreshes {@code corpus} and, when it holds every one of {@code targets} whole as listed and
   * the patterns are no longer than its pieces overlap for, returns a scan of them that holds the
   * corpus's lock until it closes; else null, with the lock released (the caller reads the files).
   */
  public static ResidentScan open(ResidentCorpus corpus, DfaTable table, ScanOptions options, List<ScanFile> targets) {
    return open(corpus, table, options, targets, true);
  }

  /**
   * The same; {@code promote} false keeps the scan's table interpreted whatever the policy says (for a
   * benchmark's baseline).
   */
  public static ResidentScan open(ResidentCorpus corpus, DfaTable table, ScanOptions options, List<ScanFile> targets,
      boolean promote) {
    corpus.lock().lock();
    try {
      ResidentCorpus.Refresh refresh = corpus.refresh();
      if (table.maxPatternLength() <= corpus.maxPatternLength()) {
        ResidentCorpus.Entry[] entries = new ResidentCorpus.Entry[targets.size()];
        for (int i = 0; i < entries.length; i++) {
          entries[i] = corpus.entry(targets.get(i));
          if (entries[i] == null) {
            corpus.lock().unlock();
            return null;
          }
        }
        return new ResidentScan(corpus, table, options, refresh, targets, entries, promote);
      }
    } catch (RuntimeException e) {
      corpus.lock().unlock();
      throw e;
    }
    corpus.lock().unlock();
    return null;
  }

  private ResidentScan(ResidentCorpus corpus, DfaTable table, ScanOptions options, ResidentCorpus.Refresh refresh,
      List<ScanFile> targets, ResidentCorpus.Entry[] entries, boolean promote) {
    KernelResourcePool pool = corpus.pool();
    this.corpus = corpus;
    this.kernel = pool.kernel();
    this.table = table;
    this.options = options;
    this.refresh = refresh;
    this.overlap = table.maxPatternLength() - 1;
    ScanJob.checkHitsCountable(table, options.chunkBytes() + overlap);
    this.counts = options.keepHits() ? null : new MatchCounters(pool, Math.max(1, entries.length));
    this.taskBytes = ResidentSizing.taskBytes(options);
    this.batchTasks = counts == null ? options.tasksPerChunk() : ResidentSizing.countBatchTasks(kernel, options);
    this.batchBytes = batchTasks * taskBytes;
    this.packedBytes = counts != null ? batchBytes
        : Math.min(options.chunkBytes(), ScanJob.MAX_HIT_CAPACITY / Math.max(1, table.maxAcceptsPerState()));
    this.dfaHandle = pool.take(table.byteSize(), ResourcePlacement.DEVICE);
    kernel.writeResource(dfaHandle, 0, table.segment());
    long bytes = 0;
    for (ResidentCorpus.Entry entry : entries) {
      bytes += entry.size();
    }
    this.promotion = promote ? DfaPromotion.promoteIfHot(kernel, dfaHandle, table, Math.ceilDiv(bytes, taskBytes))
        : "not promoted: interpreted by request";
    this.hits = new HitResources(pool);
    args[DfaStepArgs.MODE_ARG] = counts == null ? DfaStepArgs.MODE_RECORDS : DfaStepArgs.MODE_COUNT;
    long capacity = Math.min(options.hitCapacity(), ScanJob.MAX_HIT_CAPACITY);
    this.staging = new TaskBatch(batchTasks).priority(Priority.NORMAL);
    this.batches = new Batch[options.buffers()];
    for (int i = 0; i < batches.length; i++) {
      batches[i] = new Batch();
      batches[i].hitCapacity = capacity;
      batches[i].hitHandle = counts == null ? hits.allocate(capacity) : counts.handle();
      free.add(batches[i]);
    }
    this.files = targets;
    this.entries = entries;
  }

  /** Whether the scan's table was promoted at its start, and why (docs/POLICY.md, "Promotion"). */
  public String promotion() {
    return promotion;
  }

  /** What the refresh before this scan did (for {@code --verbose}). */
  public ResidentCorpus.Refresh refresh() {
    return refresh;
  }

  @Override
  public String ioBackend() {
    return "resident corpus " + corpus.directory() + " (" + corpus.files() + " file(s), " + corpus.bytes()
        + " bytes in device memory; refreshed in " + String.format("%.3f s: ", refresh.nanos() / 1e9) + refresh.loaded()
        + " loaded, " + refresh.reloaded() + " reloaded, " + refresh.dropped() + " dropped); DFA table " + promotion;
  }

  @Override
  public ScanPhases phases() {
    Megakernel.RoomWait room = kernel.roomWait().since(roomWaitBefore);
    return new ScanPhases(0, 0, taskNanos, hitNanos, publishNanos, room.waitNanos(), room.idleNanos());
  }

  @Override
  public long bytesScanned() {
    return bytesScanned;
  }

  @Override
  public void stop() {
    stopping = true;
  }

  /**
   * Scans the targets {@link #open} was given (which {@code targets} must be) and passes each file's
   * matches and result to {@code sink}, in order; the bytes come from the corpus, not the disk.
   *
   * @throws PipelineException when a task faulted or the kernel stopped finishing tasks
   * @throws KernelException when the kernel is shut down (or failed) before or during the run
   */
  @Override
  public ScanSummary run(List<ScanFile> targets, ScanSink resultSink) {
    if (targets != files) {
      throw new IllegalArgumentException("a resident scan runs the targets it was opened for");
    }
    if (!kernel.isKernelRunning()) {
      throw kernel.closedError();
    }
    long started = System.nanoTime();
    sink = resultSink;
    matches = new long[files.size()];
    stopped = new boolean[files.size()];
    errors = new HashMap<>();
    fileHits = new int[files.size() + 1];
    nextFile = nextPiece = 0;
    nextTask = 0;
    passed = failedFiles = 0;
    totalMatches = rescans = 0;
    bytesScanned = 0;
    taskNanos = hitNanos = publishNanos = 0;
    roomWaitBefore = kernel.roomWait();
    stopping = false;
    order.dropCarry();
    countedFrom = 0;
    unreadBytes = 0;
    if (counts != null) {
      counts.reset();
    }
    faultsSeen = kernel.stats().faults();
    while (true) {
      while (!stopping && !free.isEmpty() && nextFile < files.size()) {
        Batch batch = free.poll();
        batch.startFile = nextFile;
        batch.startPiece = nextPiece;
        batch.startTask = nextTask;
        long filling = System.nanoTime();
        fill(batch);
        publishNanos += System.nanoTime() - filling;
        publish(batch);
        inFlight.add(batch);
      }
      if (inFlight.isEmpty()) {
        break;
      }
      Batch head = inFlight.poll();
      awaitBatch(head);
      if (stopping) {
        if (counts == null) {
          hits.reset(head.hitHandle, head.hitCapacity);
        }
        free.add(head);
      } else {
        long collectStarted = System.nanoTime();
        collect(head);
        hitNanos += System.nanoTime() - collectStarted;
      }
    }
    sink = null;
    return new ScanSummary(passed, failedFiles, bytesScanned, totalMatches, rescans, System.nanoTime() - started);
  }

  /**
   * Adds the tasks from the batch's start on, until a chunk's tasks or {@link #batchBytes}: a file of
   * more than that starts a batch of its own; a smaller one joins a batch only whole, within {@link
   * #packedBytes}, so that its matches always fit the largest hit buffer.
   */
  private void fill(Batch batch) {
    addTasks(batch, staging.clear());
    batch.taskCount = staging.size();
  }

  private void addTasks(Batch batch, TaskBatch tasks) {
    batch.bytes = 0;
    batch.lastContinues = false;
    batch.lastFile = nextFile;
    int maxTasks = batchTasks;
    int startState = table.startState();
    while (nextFile < files.size()) {
      ResidentCorpus.Piece[] pieces = entries[nextFile].pieces();
      if (nextFile != batch.startFile && (entries[nextFile].size() > batchBytes
          || batch.bytes + entries[nextFile].size() > packedBytes
          || tasks.size() + tasksOf(pieces, taskBytes) > maxTasks)) {
        return;
      }
      batch.lastFile = nextFile;
      for (; nextPiece < pieces.length; nextPiece++, nextTask = 0) {
        ResidentCorpus.Piece piece = pieces[nextPiece];
        long count = Math.ceilDiv(piece.ownedTo() - piece.ownedFrom(), taskBytes);
        for (; nextTask < count; nextTask++) {
          long owned = piece.ownedFrom() + nextTask * taskBytes;
          if (tasks.size() == maxTasks || batch.bytes >= batchBytes) {
            batch.lastContinues = true;
            batch.ownedEnd = owned;
            return;
          }
          long end = Math.min(piece.ownedTo(), owned + taskBytes);
          long read = Math.max(0, owned - overlap);
          DfaStepArgs.write(args, piece.handle(), piece.at() + (read - piece.readOffset()), end - read, dfaHandle,
              startState, batch.hitHandle, nextFile, read, owned - read);
          tasks.add(0, DfaStepArgs.OPCODE, args);
          batch.bytes += end - owned;
        }
      }
      nextFile++;
      nextPiece = 0;
      nextTask = 0;
    }
  }

  private static long tasksOf(ResidentCorpus.Piece[] pieces, long taskBytes) {
    long tasks = 0;
    for (ResidentCorpus.Piece piece : pieces) {
      tasks += Math.ceilDiv(piece.ownedTo() - piece.ownedFrom(), taskBytes);
    }
    return tasks;
  }

  /** Publishes the batch {@link #fill} has just staged. */
  private void publish(Batch batch) {
    long started = System.nanoTime();
    batch.lastTicket = batch.taskCount == 0 ? -1
        : Megakernel.batchTicket(kernel.publish(staging), batch.taskCount - 1);
    publishNanos += System.nanoTime() - started;
  }

  private void awaitBatch(Batch batch) {
    if (batch.lastTicket < 0) {
      return;
    }
    long started = System.nanoTime();
    boolean finished = kernel.await(batch.lastTicket, TASK_TIMEOUT);
    taskNanos += System.nanoTime() - started;
    if (!finished) {
      if (!kernel.isKernelRunning()) {
        throw kernel.closedError();
      }
      throw PipelineException.backend("DFA_STEP tasks of the resident corpus (" + files.get(batch.startFile).path()
          + ") did not finish within " + TASK_TIMEOUT.toSeconds() + " s (" + kernel.summary()
          + "). Fix: check `vyre doctor` and the backend");
    }
    long faults = kernel.stats().faults();
    if (faults != faultsSeen) {
      throw PipelineException.backend((faults - faultsSeen) + " DFA_STEP task(s) faulted while scanning the resident "
          + files.get(batch.startFile).path() + ". Fix: report this; the scan validates every range and table it publishes");
    }
  }

  /**
   * Takes a finished batch: tallies it when the scan only counts, else reads the records back, puts
   * each file's in order and passes them on; scans the batch again with a larger hit buffer when
   * they overflowed it.
   */
  private void collect(Batch batch) {
    if (counts != null) {
      tally(batch);
      free.add(batch);
      return;
    }
    int first = batch.startFile;
    int last = batch.lastFile;
    long cursor = batch.lastTicket < 0 ? 0 : hits.fetch(batch.hitHandle, batch.hitCapacity, true);
    if (cursor > batch.hitCapacity) {
      hits.reset(batch.hitHandle, batch.hitCapacity);
      if (cursor <= ScanJob.MAX_HIT_CAPACITY) {
        rescan(batch, Math.min(ScanJob.MAX_HIT_CAPACITY, Math.max(cursor, 2 * batch.hitCapacity)));
        return;
      }
      for (int file = first; file <= last; file++) {
        errors.putIfAbsent(file, cursor + " matches in the chunk at offset " + (file == first ? firstOffset(batch) : 0)
            + " exceed the " + ScanJob.MAX_HIT_CAPACITY + " a hit buffer holds; the matches there are not reported");
        stopped[file] = true;
      }
      order.dropCarry();
      cursor = 0;
    }
    bytesScanned += batch.bytes;
    place(batch, cursor);
    hits.reset(batch.hitHandle, batch.hitCapacity);
    pass(batch);
    free.add(batch);
  }

  /**
   * Takes a finished batch of a counting scan; after two windows of batches, or when it was the last
   * in flight, reads the counters of the files since the last read and passes them on.
   */
  private void tally(Batch batch) {
    bytesScanned += batch.bytes;
    unreadBytes += batch.bytes;
    doneFile = batch.lastFile;
    doneContinues = batch.lastContinues;
    if (unreadBytes < 2 * batchBytes * options.buffers() && !inFlight.isEmpty()) {
      return;
    }
    int finished = doneContinues ? doneFile - 1 : doneFile;
    counts.read(countedFrom, doneFile);
    for (int file = countedFrom; file <= doneFile && !stopping; file++) {
      long count = counts.counter(file);
      if (count > matches[file] && !stopped[file]) {
        matches[file] = count;
        stopped[file] = !sink.found(files.get(file), null, count);
      }
      if (file <= finished) {
        finish(file);
      }
    }
    countedFrom = finished + 1;
    unreadBytes = 0;
  }

  /** Where a batch begins in its first file. */
  private long firstOffset(Batch batch) {
    ResidentCorpus.Piece[] pieces = entries[batch.startFile].pieces();
    return pieces.length == 0 ? 0 : Math.max(0, pieces[batch.startPiece].ownedFrom() + batch.startTask * taskBytes
        - overlap);
  }

  /** Publishes the batch again, before every later one is passed on, with a hit buffer of {@code capacity}. */
  private void rescan(Batch batch, long capacity) {
    hits.free(batch.hitHandle);
    batch.hitCapacity = capacity;
    batch.hitHandle = hits.allocate(capacity);
    int fileAfter = nextFile;
    int pieceAfter = nextPiece;
    long taskAfter = nextTask;
    nextFile = batch.startFile;
    nextPiece = batch.startPiece;
    nextTask = batch.startTask;
    fill(batch);
    nextFile = fileAfter;
    nextPiece = pieceAfter;
    nextTask = taskAfter;
    rescans++;
    publish(batch);
    inFlight.addFirst(batch);
  }

  /**
   * Reads the batch's {@code count} records into {@link #order}: each file's in a range of its own,
   * after the hits its first file carried from the previous batch, sorted.
   */
  private void place(Batch batch, long count) {
    int first = batch.startFile;
    int last = batch.lastFile;
    Arrays.fill(fileHits, first, last + 1, 0);
    firstOfBatch = first;
    lastOfBatch = last;
    foreignHits = 0;
    boolean carried = order.carried() > 0;
    if (count > 0) {
      placing = false;
      hits.collect(batch.hitHandle, count, this);
    }
    order.begin(count, carried);
    int begin = order.size();
    for (int file = first; file <= last; file++) {
      int hitsOfFile = fileHits[file];
      fileHits[file] = begin;
      begin += hitsOfFile;
    }
    if (count > 0) {
      placing = true;
      hits.replay(count, this);
    }
    if (foreignHits > 0) {
      throw PipelineException.backend(foreignHits + " hit record(s) of the resident corpus carried an input id of no"
          + " file in their batch. Fix: report this backend bug");
    }
    // Placing advanced each file's begin to its end.
    for (int file = first; file <= last; file++) {
      order.sort(file == first ? 0 : fileHits[file - 1], fileHits[file]);
    }
  }

  /** Takes a hit record: counts it for its file, then puts it in its file's range. */
  @Override
  public void hit(int inputId, long start, int patternId) {
    if (inputId < firstOfBatch || inputId > lastOfBatch) {
      foreignHits++;
    } else if (placing) {
      order.set(fileHits[inputId]++, start, patternId);
    } else {
      fileHits[inputId]++;
    }
  }

  /** Passes each file's sorted hits on, carrying those a later batch's may precede, and each finished file's result. */
  private void pass(Batch batch) {
    int first = batch.startFile;
    for (int file = first; file <= batch.lastFile && !stopping; file++) {
      int from = file == first ? 0 : fileHits[file - 1];
      int to = fileHits[file];
      if (file == batch.lastFile && batch.lastContinues) {
        to = order.carryFrom(batch.ownedEnd - overlap);
      }
      if (!stopped[file] && to > from) {
        matches[file] += to - from;
        if (!sink.found(files.get(file), order.view(from, to), matches[file])) {
          stopped[file] = true;
          if (file == batch.lastFile && batch.lastContinues) {
            order.dropCarry();
          }
        }
      }
      if (file < batch.lastFile || !batch.lastContinues) {
        finish(file);
      }
    }
  }

  private void finish(int file) {
    if (stopping) {
      return;
    }
    String error = errors.get(file);
    FileResult result = new FileResult(files.get(file), file, matches[file], null, error, false, false);
    failedFiles += result.failed() ? 1 : 0;
    totalMatches += matches[file];
    passed++;
    sink.finished(result);
  }

  /** Gives the scan's resources back to the pool and releases the corpus. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (inFlight.isEmpty()) {
        KernelResourcePool pool = corpus.pool();
        kernel.demoteDfaTable(dfaHandle);
        pool.giveBack(dfaHandle);
        hits.close();
        if (counts != null) {
          counts.close();
        } else {
          for (Batch batch : batches) {
            hits.free(batch.hitHandle);
          }
        }
      }
    } finally {
      corpus.lock().unlock();
    }
  }
}

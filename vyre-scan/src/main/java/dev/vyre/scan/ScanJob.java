package dev.vyre.scan;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.BufferPool;
import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The {@code vyre scan} engine: reads files in chunks into a fixed pool of HOST_MAPPED resources
 * (io_uring where it works, so on CUDA the bytes land straight in pinned memory), copies each
 * chunk into a DEVICE resource when {@link ScanOptions#stageOnDevice()} says so (one bulk DMA by
 * the copy engine instead of every task reading across PCIe), publishes one DFA_STEP task per
 * {@link ScanOptions#taskBytes()} of each chunk, reads each chunk's hits back once its tasks
 * finished, and hands them to a {@link ScanSink} chunk by chunk, sorted by offset, in file order,
 * as soon as every earlier chunk was handed on ({@link InOrderDelivery}): the heap holds one chunk's
 * hits, not a file's. A
 * sink that has its answer for a file (its first {@code -m} matches) stops it: no further chunk
 * of it is read, its chunks in flight are dropped, and it is closed. Files no
 * larger than a chunk are packed whole, one after another, into a shared chunk (see {@link
 * ChunkSlot}), so a tree of small files costs a batch and a hit read-back per chunk, not per file
 * ({@link ChunkFeed} decides what each buffer reads). A chunk
 * whose hits overflow its buffer is rescanned with a buffer that holds them all. A job that only
 * counts writes no hit record: its tasks run in count mode, adding to a counter per file of the
 * chunk on the device, read back in one copy per chunk.
 *
 * <p>One thread drives it as an event loop: it runs every step that is ready (collecting chunks
 * whose tasks finished, passing hits on, taking finished reads and packs, starting reads into free
 * buffers) and waits only when none is; {@link #phases()} says where it waited. Each kernel's
 * device copies and task publishing run on a thread of their own when chunks are staged on the
 * device ({@link LanePublisher}), and small
 * files are opened and read by {@link PackReaders}. A buffer is reused only after its tasks
 * finished. The job owns the megakernel's DFA_STEP work while it runs (a fault in any task fails
 * the job). Resources are taken once, when the job is created, from a {@link KernelResourcePool}
 * they go back to when it closes.
 *
 * <p>A job may drive several kernels, one per device ({@link ScanLane}, each with its publisher):
 * one walk, one reader and one in-order delivery feed them all. Each kernel gets {@link ScanOptions#buffers()} chunk buffers
 * of its own (pinned memory of its device), and a chunk is read into whichever buffer is free next,
 * so chunks of one file and small files alike spread over the devices, a faster one taking more.
 * What reaches the sink does not depend on which kernel scanned a chunk: byte for byte the output of
 * one kernel (docs/MULTI-GPU.md).
 */
public final class ScanJob implements ScanRun {

  /** The most records one chunk's hit buffer may grow to (256 MiB); more is reported per file. */
  public static final long MAX_HIT_CAPACITY = 1L << 24;
  /** The most matches a chunk may be able to hold: its hit cursor is a u32 (see {@link #checkHitsCountable}). */
  public static final long MAX_HITS_PER_CHUNK = 0xFFFF_FFFFL;

  private static final Duration TASK_TIMEOUT = Duration.ofMinutes(2);

  private final ScanLane[] lanes;
  private final DfaTable table;
  private final ScanOptions options;
  private final int overlap;
  private final ChunkSlot[] slots;
  /** The chunks of one lane whose tasks {@link #advance} found finished, collected together. */
  private final ChunkSlot[] finished;
  private final long bufferBytes;
  private static final long OVERLAP_ROOM = 64 << 10;
  /**
   * Bytes a chunk of several packed files may hold: few enough that their matches always fit the
   * largest hit buffer, so packing never fails files that would have passed alone.
   */
  private final long packedBytes;
  private final ChunkFeed feed;
  /**
   * The wait when nothing was ready: spins first (a GPU finishes a step in µs), then yields (on a
   * small CPU the reference workers need the core), then parks briefly.
   */
  private final IdleStrategy.Backoff idleWait = IdleStrategy.backoff(64, 192, 20_000, 20_000);
  private final InOrderDelivery delivery;
  /** Collected slots whose hits wait for an earlier chunk to be passed on. */
  private int waiting;
  private volatile long bytesScanned;
  private long rescans;
  private long readNanos;
  private long copyNanos;
  private long taskNanos;
  private long hitNanos;
  /** The lanes' publishers' time before this run. */
  private long publishedBefore;
  /** The kernels' ring-room waits when the run began (a service's other jobs on the same kernel count too). */
  private Megakernel.RoomWait roomWaitBefore = Megakernel.RoomWait.NONE;
  private volatile boolean stopping;

  /**
   * Validates and uploads the table (DEVICE), allocates the chunk buffers (HOST_MAPPED) and their
   * hit buffers (DEVICE), and opens the chunk reader over the buffers. The kernel's ring must
   * hold {@link ScanOptions#tasksPerChunk()} tasks of priority NORMAL at once.
   */
  public ScanJob(Megakernel kernel, DfaTable table, ScanOptions options) {
    this(new KernelResourcePool(kernel), table, options);
  }

  /**
   * A job whose resources come from {@code pool} and go back to it when the job closes, for a
   * kernel that runs many jobs (one after another or at once, each from its own thread).
   */
  public ScanJob(KernelResourcePool pool, DfaTable table, ScanOptions options) {
    this(List.of(pool), table, options);
  }

  /**
   * A job over several kernels, one per device, whose resources come from {@code pools} (one per
   * kernel) and go back to them when the job closes; its results are those of a job on one kernel.
   * Each kernel's ring must hold {@link ScanOptions#tasksPerChunk()} tasks of priority NORMAL.
   */
  public ScanJob(List<KernelResourcePool> pools, DfaTable table, ScanOptions options) {
    if (pools.isEmpty()) {
      throw PipelineException.invalidArgument("scan", "a scan job needs a kernel and was given none", "pass at least one kernel's pool");
    }
    this.table = table;
    this.options = options;
    this.overlap = table.maxPatternLength() - 1;
    checkHitsCountable(table, options.chunkBytes() + overlap);
    this.lanes = new ScanLane[pools.size()];
    for (int k = 0; k < lanes.length; k++) {
      lanes[k] = new ScanLane(pools.get(k), table, options.tasksPerChunk(), !options.keepHits(), options.buffers());
    }
    long capacity = hitCapacity(options);
    // Room for the overlap in steps of OVERLAP_ROOM: every pattern set up to that long gets buffers of one size,
    // which a service's pool hands from one client's job to the next instead of pinning new ones.
    long room = Math.ceilDiv(overlap + 1, OVERLAP_ROOM) * OVERLAP_ROOM;
    this.bufferBytes = Math.ceilDiv(options.chunkBytes() + room, BufferPool.ALIGNMENT) * BufferPool.ALIGNMENT;
    this.packedBytes = Math.min(bufferBytes, MAX_HIT_CAPACITY / Math.max(1, table.maxAcceptsPerState()));
    this.slots = new ChunkSlot[options.buffers() * lanes.length];
    this.finished = new ChunkSlot[options.buffers()];
    List<MemorySegment> buffers = new ArrayList<>();
    for (int i = 0; i < slots.length; i++) {
      // Round robin, so the first reads go to every kernel in turn.
      ScanLane lane = lanes[i % lanes.length];
      int input = lane.pool.take(bufferBytes, ResourcePlacement.HOST_MAPPED);
      buffers.add(lane.pool.hostView(input, bufferBytes));
      int scanned = options.stageOnDevice() ? lane.pool.take(bufferBytes, ResourcePlacement.DEVICE) : input;
      // A job that only counts writes no hit record (its tasks count in place): no hit buffer.
      int hits = options.keepHits() ? lane.hits.allocate(capacity) : ChunkSlot.NO_HIT_BUFFER;
      slots[i] = new ChunkSlot(i, lane, i / lanes.length, input, scanned, hits, capacity, options.tasksPerChunk());
    }
    for (ScanLane lane : lanes) {
      lane.publisher = new LanePublisher(lane, slots, options.tasksPerChunk(), table.startState(), options.stageOnDevice());
    }
    this.delivery = new InOrderDelivery(slots, overlap, () -> stopping, this::release, this::closeIfRead);
    this.feed = new ChunkFeed(options, overlap, packedBytes, slots, buffers, delivery.pending, this::seal, this::release,
        () -> ScanLane.allIdle(lanes));
  }

  /**
   * A chunk's hit cursor is a u32 (DFA_STEP's hit buffer): past 2^32 - 1 hits it would wrap and the
   * chunk's matches would be reported wrongly without an error, so a chunk must not be able to hold
   * that many. At most {@link DfaTable#maxAcceptsPerState} matches end at one byte.
   */
  static void checkHitsCountable(DfaTable table, long chunkBytesWithOverlap) {
    if (chunkBytesWithOverlap > table.maxCountableBytes()) {
      throw InputException.of("scan options", "up to " + table.maxAcceptsPerState() + " of these patterns can end at one byte, so a chunk of "
          + chunkBytesWithOverlap + " bytes could hold more matches than a chunk's u32 hit counter can count",
          "use chunks of at most " + table.maxCountableBytes() + " bytes including the longest pattern"
              + " (ScanOptions.fittingHitCounter), or remove duplicate patterns");
    }
  }

  /** Records in a chunk's hit buffer at first: the launch policy's hit capacity, at most {@link #MAX_HIT_CAPACITY}. */
  public static long hitCapacity(ScanOptions options) {
    return Math.min(options.hitCapacity(), MAX_HIT_CAPACITY);
  }

  /** The chunk reader in use: io_uring, or FileChannel and why (for {@code --verbose}). */
  public String ioBackend() {
    return feed.backend();
  }

  /** Where the last run's thread spent its time (for {@code --verbose} and the bench). */
  public ScanPhases phases() {
    Megakernel.RoomWait room = roomWait().since(roomWaitBefore);
    return new ScanPhases(readNanos, copyNanos, taskNanos, hitNanos + delivery.hitNanos, publishNanos() - publishedBefore,
        room.waitNanos(), room.idleNanos());
  }

  /** Bytes scanned so far in the current run; safe to read from another thread (progress). */
  public long bytesScanned() {
    return bytesScanned;
  }

  /**
   * Ends the current run early, for a sink that has its answer ({@code vyre scan -q} at its first
   * match): no more reads start, the chunks in flight are scanned and their buffers freed, open files
   * are closed, and no further file reaches the sink. Any thread may call it (a service whose client
   * went away does).
   */
  public void stop() {
    stopping = true;
  }

  /**
   * Scans {@code targets} and passes each file's result, with all its matches, to {@code sink}, in
   * the order given; a file that cannot be read is passed with its error and the job goes on. After
   * {@link #stop()} the summary counts the files passed so far. The heap holds a file's matches
   * until its result is passed ({@link ScanSink#collecting}); {@link #run(List, ScanSink)} streams
   * them instead.
   *
   * @throws PipelineException when a task faulted or the kernel stopped finishing tasks; a job
   *     whose run threw is closed, not run again
   * @throws KernelException when the kernel is shut down (or failed) before or during the run
   */
  public ScanSummary run(List<ScanFile> targets, Consumer<FileResult> sink) {
    return run(targets, ScanSink.collecting(options.keepHits(), sink));
  }

  /**
   * Scans {@code targets}, passing each chunk's matches to {@code sink} as they are found and each
   * file's result after its matches, in the order given ({@link ScanSink} says when); a file that
   * cannot be read is passed with its error and the job goes on. After {@link #stop()} the summary
   * counts the files passed so far.
   *
   * @throws PipelineException when a task faulted or the kernel stopped finishing tasks; a job
   *     whose run threw is closed, not run again
   * @throws KernelException when the kernel is shut down (or failed) before or during the run
   */
  public ScanSummary run(List<ScanFile> targets, ScanSink sink) {
    // The chunk and hit buffers are the kernels' resources, freed by their shutdown: no read may be
    // started into them after that.
    ScanLane stopped = ScanLane.stopped(lanes);
    if (stopped != null) {
      throw stopped.kernel.closedError();
    }
    try {
      return scan(targets, sink);
    } catch (RuntimeException e) {
      // A run that threw is not run again: its reads in flight come back now rather than at close,
      // so that a kernel shutting down under it frees their buffers without waiting for this job.
      try {
        feed.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      // A shutdown on another thread ended the buffers' views under this run, or refused a read into
      // them, which is the kernel shut down to the caller; either while they all run is a bug.
      stopped = ScanLane.stopped(lanes);
      boolean buffersEnded = e instanceof IllegalStateException
          || e instanceof PipelineException closed && closed.variant() == PipelineException.Variant.Closed;
      if (!buffersEnded || stopped == null) {
        throw e;
      }
      throw stopped.kernel.closedError();
    }
  }

  private ScanSummary scan(List<ScanFile> targets, ScanSink sink) {
    long started = System.nanoTime();
    delivery.start(sink);
    feed.start(targets);
    bytesScanned = 0;
    rescans = 0;
    readNanos = copyNanos = taskNanos = hitNanos = 0;
    publishedBefore = publishNanos();
    roomWaitBefore = roomWait();
    stopping = false;
    waiting = 0;
    long idleSince = 0;
    idleWait.reset();
    while (true) {
      feed.fill(stopping);
      int steps = delivery.passReady();
      if (feed.idle() && ScanLane.allIdle(lanes)) {
        if (stopping || delivery.pending.isEmpty() && feed.allReached()) {
          break;
        }
        if (steps > 0) {
          // Passing chunks on freed buffers: the next round reads into them.
          continue;
        }
        // Every chunk a waiting one follows is passed on or dropped once nothing is in flight.
        throw PipelineException.backend(waiting + " scanned chunk(s) wait for a chunk of "
            + (delivery.pending.isEmpty() ? "no file" : delivery.pending.peek().file.path())
            + " that is not in flight. Fix: report this bug");
      }
      if (advance()) {
        idleWait.reset();
        continue;
      }
      long now = System.nanoTime();
      if (idleWait.rounds() == 0) {
        idleSince = now;
      }
      idle(idleSince, now);
    }
    if (stopping) {
      delivery.dropUnfinished(feed.reader());
      feed.dropCurrent();
    }
    return new ScanSummary(delivery.passed, delivery.failedFiles, bytesScanned, delivery.matches, rescans,
        System.nanoTime() - started);
  }

  /**
   * Runs every step that is ready without waiting: takes the chunks the lanes' publishers
   * published (freeing those with nothing to scan), collects chunks whose tasks finished (freeing
   * their buffers for reads), and takes finished reads and packs. Returns false when nothing was ready.
   */
  private boolean advance() {
    boolean progress = false;
    for (ScanLane lane : lanes) {
      ChunkSlot published;
      while ((published = lane.publisher.poll()) != null) {
        if (published.lastTicket == LanePublisher.NOTHING_PUBLISHED) {
          release(published);
        } else {
          lane.scanning.add(published);
        }
        progress = true;
      }
      int count = 0;
      while (!lane.scanning.isEmpty() && lane.kernel.await(lane.scanning.peek().lastTicket, Duration.ZERO)) {
        finished[count++] = lane.scanning.poll();
      }
      if (count > 0) {
        long started = System.nanoTime();
        lane.readCounts(finished, count);
        hitNanos += System.nanoTime() - started;
        for (int i = 0; i < count; i++) {
          collect(finished[i]);
          finished[i] = null;
        }
        progress = true;
      }
    }
    return feed.takeFinished(stopping) | progress;
  }

  /**
   * Waits a little when nothing was ready, as {@link #idleWait} says. The wait counts toward the
   * oldest stage in flight. A scan with tasks in flight that has made no progress for {@link
   * #TASK_TIMEOUT}, or whose kernel stopped, fails (looked at after each park).
   */
  private void idle(long idleSince, long now) {
    boolean parks = idleWait.parking();
    idleWait.idle();
    boolean copies = false;
    boolean tasks = false;
    for (ScanLane lane : lanes) {
      copies |= lane.publisher.held() > 0;
      tasks |= !lane.scanning.isEmpty();
      if (parks) {
        lane.checkProgress(now - idleSince, TASK_TIMEOUT);
      }
    }
    long waited = System.nanoTime() - now;
    if (copies) {
      copyNanos += waited;
    } else if (tasks) {
      taskNanos += waited;
    } else {
      readNanos += waited;
    }
  }

  /** Hands a chunk whose reads are all done to its lane's publisher: to its device copy, or straight to its tasks. */
  private void seal(ChunkSlot slot) {
    publish(slot, options.stageOnDevice() && slot.readEnd() > 0);
  }

  /**
   * Hands the chunk to its lane's publisher, to be copied first or not, or frees it when there is
   * nothing to scan. Only a file's single chunks can be in flight when it stops: packed files stop
   * once passed on.
   */
  private void publish(ChunkSlot slot, boolean copyFirst) {
    if (slot.segments() == 0 || slot.segments() == 1 && slot.file(0).stopped) {
      release(slot);
    } else {
      slot.lane.publisher.submit(slot, copyFirst);
    }
  }

  /**
   * Takes a chunk whose tasks finished: counts its hits when the job only counts, else leaves them
   * for {@link InOrderDelivery} to hand on in order; rescans it if they overflowed.
   */
  private void collect(ChunkSlot slot) {
    long started = System.nanoTime();
    try {
      collectHits(slot);
    } finally {
      hitNanos += System.nanoTime() - started;
    }
  }

  private void collectHits(ChunkSlot slot) {
    slot.lane.checkFaults(slot);
    HitResources hitResources = slot.lane.hits;
    if (slot.segments() == 1) {
      slot.file(0).scannedChunks++;
    }
    if (slot.segments() == 1 && slot.file(0).stopped) {
      slot.resetHits();
      bytesScanned += slot.scannedBytes();
      release(slot);
      return;
    }
    if (slot.counting()) {
      // Each segment's tasks added to its own counter on the device, read back with the other chunks
      // that finished (ScanLane.readCounts): no records, no reset. One file's chunk is released before
      // its count is passed on, as below, so that a file stopped by it closes.
      bytesScanned += slot.scannedBytes();
      if (slot.segments() == 1) {
        FileScan file = slot.file(0);
        long count = slot.segmentCount(0);
        release(slot);
        delivery.counted(file, count);
        return;
      }
      for (int segment = 0; segment < slot.segments(); segment++) {
        delivery.counted(slot.file(segment), slot.segmentCount(segment));
      }
      release(slot);
      return;
    }
    // The job keeps hits: packed files share the buffer, so their hits are told apart by the records' input ids.
    long cursor = hitResources.fetch(slot.hitHandle, slot.hitCapacity, true);
    if (cursor > slot.hitCapacity) {
      slot.resetHits();
      if (cursor <= MAX_HIT_CAPACITY) {
        if (slot.segments() == 1) {
          // Not scanned yet: the file's next chunks wait for it (FileScan.rampsUp).
          slot.file(0).scannedChunks--;
        }
        slot.hitCapacity = Math.min(MAX_HIT_CAPACITY, Math.max(cursor, 2 * slot.hitCapacity));
        hitResources.free(slot.hitHandle);
        slot.hitHandle = hitResources.allocate(slot.hitCapacity);
        rescans++;
        publish(slot, false);
        return;
      }
      for (int segment = 0; segment < slot.segments(); segment++) {
        slot.file(segment).fail(cursor + " matches in the chunk at offset " + slot.chunk(segment).readOffset()
            + " exceed the " + MAX_HIT_CAPACITY + " a hit buffer holds; the matches there are not reported");
      }
    } else {
      // The hits stay in the hit resource until every earlier chunk was passed on (InOrderDelivery).
      bytesScanned += slot.scannedBytes();
      slot.collected = true;
      slot.hitCount = cursor;
      waiting++;
      return;
    }
    bytesScanned += slot.scannedBytes();
    release(slot);
  }

  /** What the lanes' kernels' publishers have waited for ring room so far, summed. */
  private Megakernel.RoomWait roomWait() {
    Megakernel.RoomWait total = Megakernel.RoomWait.NONE;
    for (ScanLane lane : lanes) {
      total = total.plus(lane.kernel.roomWait());
    }
    return total;
  }

  /** Time the lanes' publishers spent publishing, on their own threads. */
  private long publishNanos() {
    long nanos = 0;
    for (ScanLane lane : lanes) {
      nanos += lane.publisher.publishNanos();
    }
    return nanos;
  }

  private void closeIfRead(FileScan file) {
    feed.closeIfRead(file);
  }

  private void release(ChunkSlot slot) {
    if (slot.collected) {
      waiting--;
    }
    slot.release();
    feed.free(slot);
  }

  /**
   * Closes the chunk reader and the pack readers once their reads finished, and gives the job's
   * resources back to their pools, unless tasks or copies may still use them (a run that threw):
   * those stay the kernels' until they shut down.
   */
  @Override
  public void close() {
    feed.close();
    for (ScanLane lane : lanes) {
      lane.publisher.close();
    }
    if (!ScanLane.allIdle(lanes)) {
      return;
    }
    for (ScanLane lane : lanes) {
      lane.close();
    }
    for (ChunkSlot slot : slots) {
      KernelResourcePool pool = slot.lane.pool;
      pool.giveBack(slot.inputHandle);
      if (slot.scanHandle != slot.inputHandle) {
        pool.giveBack(slot.scanHandle);
      }
      if (slot.hitHandle != ChunkSlot.NO_HIT_BUFFER) {
        slot.lane.hits.free(slot.hitHandle);
      }
    }
  }
}

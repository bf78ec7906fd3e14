package dev.vyre.scan;

import dev.vyre.driver.error.InputException;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelLaunchRequest;
import dev.vyre.runtime.wire.SlotLayout;

/**
 * How a {@link ScanJob} cuts its work. Files are read in chunks of {@code chunkBytes} into a pool
 * of {@code buffers} chunk buffers; each chunk is scanned by one DFA_STEP task per {@code
 * taskBytes} of it, so that many workers (GPU lanes) scan one chunk at once. Every read and every
 * task starts (longest pattern - 1) bytes early, as {@link ChunkPlanner} plans them.
 *
 * @param chunkBytes bytes per read; a multiple of {@code taskBytes}
 * @param taskBytes bytes per DFA_STEP task
 * @param buffers chunk buffers, i.e. chunks read or scanned at once
 * @param keepHits keep each hit for output; false only counts them
 * @param stageOnDevice copy each chunk into a DEVICE resource and scan that copy (one bulk DMA)
 *     instead of scanning the HOST_MAPPED buffer in place (every task's small reads cross PCIe)
 * @param parallelReads let the kernel's io_uring workers run the reads (IOSQE_ASYNC), so several
 *     chunks are copied out of the page cache at once instead of one by one in the scan's thread
 * @param packReaders threads that open and read small files into chunks of several files at once
 *     ({@link PackReaders}), so that a tree's per-file work is not done file after file in the scan's
 *     thread; 0: the scan's thread reads them
 */
public record ScanOptions(long chunkBytes, long taskBytes, int buffers, boolean keepHits, boolean stageOnDevice,
    boolean parallelReads, int packReaders) {

  /** 4 MiB reads of 64 tasks: enough tasks in flight to keep a GPU's workers busy. */
  public static final long DEFAULT_CHUNK_BYTES = 4L << 20;
  public static final long DEFAULT_TASK_BYTES = 64L << 10;
  /**
   * A GPU lane scans one task byte by byte, so a GPU wants thousands of small tasks in flight;
   * each task also costs the host a slot write and a retire. On an H100, 4 KiB tasks beat 1 KiB
   * (host-bound) and 8-16 KiB (too few lanes busy) (docs/BENCHMARKS.md, 2026-11-22).
   */
  public static final long GPU_TASK_BYTES = 4L << 10;

  /**
   * The defaults for a backend. The reference backend scans 64 KiB tasks in place, two buffers a core
   * ({@link #referenceBuffers}), reading in the scan's thread (on a small CPU, io_uring workers took
   * cores from the scan). A GPU scans 4 KiB tasks of a device copy of each chunk, 32 buffers read by
   * io_uring workers in parallel: on an H100 that took 1 GiB from 5.1 GB/s (in place, reads inline, 16
   * buffers) to 28-30 GB/s (docs/BENCHMARKS.md, 2026-11-22).
   */
  public static ScanOptions forBackend(String backendName) {
    return forBackend(backendName, 1);
  }

  /**
   * The defaults for a job over {@code devices} kernels of a backend: as {@link #forBackend(String)},
   * but on GPUs the buffers of each device are {@link #gpuBuffersPerDevice}.
   */
  public static ScanOptions forBackend(String backendName, int devices) {
    if (backendName.equals("reference")) {
      return new ScanOptions(DEFAULT_CHUNK_BYTES, DEFAULT_TASK_BYTES, referenceBuffers(), true);
    }
    return new ScanOptions(DEFAULT_CHUNK_BYTES, GPU_TASK_BYTES, gpuBuffersPerDevice(devices), true, true, true);
  }

  /**
   * A job's chunk buffers on each of {@code devices} GPUs: the one reader that fills them all copies
   * less out of the page cache with more buffers in flight, so a job over several GPUs shares one
   * GPU's {@link #GPU_BUFFERS} among them, with at least {@link #MIN_GPU_BUFFERS_PER_DEVICE} each
   * (two H200s: docs/BENCHMARKS.md, "Twenty-fifth session: two GPUs sharing one GPU's buffers").
   */
  public static int gpuBuffersPerDevice(int devices) {
    return devices <= 1 ? GPU_BUFFERS : Math.max(MIN_GPU_BUFFERS_PER_DEVICE, GPU_BUFFERS / devices);
  }
  public static final int DEFAULT_BUFFERS = 16;
  /** A GPU scans faster than the host can feed it: more chunks in flight keep it busy. */
  public static final int GPU_BUFFERS = 32;
  /**
   * Fewer buffers than this left one GPU idle part of the time (docs/BENCHMARKS.md, "Twenty-fifth
   * session: two GPUs sharing one GPU's buffers").
   */
  public static final int MIN_GPU_BUFFERS_PER_DEVICE = 16;
  /** Chunks plus pattern overlap must fit one chunk buffer (BufferPool: below 2 GiB). */
  public static final long MAX_CHUNK_BYTES = 1L << 30;
  /** Files open at once stay below the io_uring reader's 64 file slots. */
  public static final int MAX_BUFFERS = 32;
  /** Threads reading small files at most: past that, one job's opens and copies no longer speed up. */
  public static final int MAX_PACK_READERS = 8;
  /** The launch policy sizes hit buffers for one hit per this many scanned bytes (then doubles it). */
  public static final long EXPECTED_BYTES_PER_HIT = 256;

  public ScanOptions {
    if (taskBytes < 1 || chunkBytes < taskBytes || chunkBytes > MAX_CHUNK_BYTES || chunkBytes % taskBytes != 0) {
      throw InputException.of("scan options", "chunk size " + chunkBytes + " and task size " + taskBytes
          + " do not fit: a chunk must be 1 byte to 1 GiB and a whole number of tasks",
          "pick a task size of at least 1 byte and a chunk size that is a multiple of it");
    }
    // Every task of every buffer in flight has a slot of its own, and the ring has at most this many.
    long tasksPerChunk = chunkBytes / taskBytes;
    if (buffers >= 1 && tasksPerChunk * buffers > SlotLayout.MAX_ENCODED_RING_SLOTS) {
      long smallest = Math.ceilDiv(chunkBytes * buffers, SlotLayout.MAX_ENCODED_RING_SLOTS);
      throw InputException.of("scan options", "task size " + taskBytes + " makes " + tasksPerChunk
          + " tasks of each " + chunkBytes + "-byte chunk, " + tasksPerChunk * buffers + " in flight with "
          + buffers + " buffers, more than the ring's " + SlotLayout.MAX_ENCODED_RING_SLOTS + " slots",
          "use a task size of at least " + smallest + " bytes (--task-size), or a smaller --chunk-size or fewer"
              + " --buffers");
    }
    if (buffers < 1 || buffers > MAX_BUFFERS) {
      throw InputException.of("scan options", buffers + " chunk buffers is outside 1.." + MAX_BUFFERS,
          "use between 1 and " + MAX_BUFFERS + " buffers");
    }
    if (packReaders < 0 || packReaders > MAX_PACK_READERS) {
      throw InputException.of("scan options", packReaders + " pack readers is outside 0.." + MAX_PACK_READERS,
          "use between 0 (the scan's thread) and " + MAX_PACK_READERS + " threads reading small files");
    }
  }

  /** Scans the chunk buffers in place and reads in the scan's thread. */
  public ScanOptions(long chunkBytes, long taskBytes, int buffers, boolean keepHits) {
    this(chunkBytes, taskBytes, buffers, keepHits, false, false);
  }

  /** With {@link #defaultPackReaders()} threads reading small files. */
  public ScanOptions(long chunkBytes, long taskBytes, int buffers, boolean keepHits, boolean stageOnDevice,
      boolean parallelReads) {
    this(chunkBytes, taskBytes, buffers, keepHits, stageOnDevice, parallelReads, defaultPackReaders());
  }

  /**
   * A quarter of the cores, at most {@link #MAX_PACK_READERS}: the rest scan (the reference
   * backend's workers, one per core) or publish and read hits back (a GPU). Below 4 cores none: every
   * core already runs a worker, and a thread more only adds hand-offs.
   */
  public static int defaultPackReaders() {
    return Math.min(Runtime.getRuntime().availableProcessors() / 4, MAX_PACK_READERS);
  }

  /**
   * The reference backend's chunk buffers: two a core (one scanned while the next is read), at least 4 and
   * at most {@link #DEFAULT_BUFFERS}. A buffer is touched first when the job starts, and on a small machine
   * whose page faults are slow more buffers than its workers can use cost a one-shot scan more than they
   * gave (docs/BENCHMARKS.md, "Twenty-first session: the chunk buffers' first touches (dev VM)").
   */
  static int referenceBuffers() {
    return (int) Math.clamp(2L * Runtime.getRuntime().availableProcessors(), 4, DEFAULT_BUFFERS);
  }

  public static ScanOptions defaults() {
    return new ScanOptions(DEFAULT_CHUNK_BYTES, DEFAULT_TASK_BYTES, DEFAULT_BUFFERS, true);
  }

  /** {@code chunkBytes} rounded up to a whole number of {@code taskBytes}-byte tasks. */
  public static ScanOptions of(long chunkBytes, long taskBytes, int buffers, boolean keepHits) {
    long tasks = taskBytes < 1 ? 1 : Math.max(1, Math.ceilDiv(chunkBytes, taskBytes));
    return new ScanOptions(tasks * taskBytes, taskBytes, buffers, keepHits);
  }

  /**
   * These options with chunks small enough that none can hold more matches than DFA_STEP's u32 hit
   * cursor counts, which {@link ScanJob} requires: whole tasks, a task shrunk too if one task is
   * already too large. Unchanged when they fit, or when no chunk of at least one byte would.
   */
  public ScanOptions fittingHitCounter(DfaTable table) {
    long largest = table.maxCountableBytes() - (table.maxPatternLength() - 1L);
    if (chunkBytes <= largest || largest < 1) {
      return this;
    }
    long task = Math.min(taskBytes, largest);
    return new ScanOptions(largest / task * task, task, buffers, keepHits, stageOnDevice, parallelReads, packReaders);
  }

  /** {@link #fittedTo(long, long)} for one file of {@code inputBytes}. */
  public ScanOptions fittedTo(long inputBytes) {
    return fittedTo(inputBytes, 1);
  }

  /**
   * These options with no larger chunks and no more buffers than {@code files} files of {@code
   * inputBytes} bytes in all can fill. Each file is a task of its own at least (a chunk packs at
   * most one file a task), so the input needs as many tasks as it has files or task-sized pieces,
   * whichever is more: chunks of at most that many tasks, and one buffer per such chunk. (Fitted to
   * the bytes alone, 15,000 files of 10 bytes got one buffer of three tasks, and were scanned three
   * files at a time.) A file that grows after it was listed (or was listed with size 0, as /proc's
   * files are) is still read to its end, in more chunks.
   */
  public ScanOptions fittedTo(long inputBytes, long files) {
    long tasks = Math.max(Math.max(1, files), Math.ceilDiv(inputBytes, taskBytes));
    long chunkTasks = Math.min(tasksPerChunk(), tasks);
    long chunk = chunkTasks * taskBytes;
    int fitted = (int) Math.min(buffers, Math.ceilDiv(tasks, chunkTasks));
    return chunk == chunkBytes && fitted == buffers ? this
        : new ScanOptions(chunk, taskBytes, fitted, keepHits, stageOnDevice, parallelReads, packReaders);
  }

  public ScanOptions withKeepHits(boolean value) {
    return new ScanOptions(chunkBytes, taskBytes, buffers, value, stageOnDevice, parallelReads, packReaders);
  }

  public ScanOptions withStageOnDevice(boolean value) {
    return new ScanOptions(chunkBytes, taskBytes, buffers, keepHits, value, parallelReads, packReaders);
  }

  public ScanOptions withParallelReads(boolean value) {
    return new ScanOptions(chunkBytes, taskBytes, buffers, keepHits, stageOnDevice, value, packReaders);
  }

  public ScanOptions withPackReaders(int value) {
    return new ScanOptions(chunkBytes, taskBytes, buffers, keepHits, stageOnDevice, parallelReads, value);
  }

  public int tasksPerChunk() {
    return (int) (chunkBytes / taskBytes);
  }

  /** Ring slots that hold every task the job can have in flight: one batch per buffer. */
  public int ringSlots() {
    return Math.max(64, buffers * tasksPerChunk());
  }

  /**
   * Records per chunk's hit buffer: the launch policy's {@code hit_capacity} for a queue of one
   * chunk's tasks with one expected hit per {@link #EXPECTED_BYTES_PER_HIT} bytes each (the policy
   * doubles it and keeps at least 1024). A chunk that finds more is rescanned with a larger buffer.
   */
  public long hitCapacity() {
    return MegakernelLaunchPolicy.standard().recommend(hitCapacityRequest()).hitCapacity();
  }

  /** What {@link #hitCapacity} asks the launch policy, for {@code vyre doctor --json}'s evidence. */
  public MegakernelLaunchRequest hitCapacityRequest() {
    long expectedPerTask = Math.max(1, Math.min(taskBytes / EXPECTED_BYTES_PER_HIT, Integer.MAX_VALUE));
    return MegakernelLaunchRequest.directBuilder(tasksPerChunk(), 1, 1).expectedHitsPerItem(expectedPerTask).build();
  }
}

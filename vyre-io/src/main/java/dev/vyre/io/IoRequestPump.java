package dev.vyre.io;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.uring.IoUringRangeReader;
import dev.vyre.io.uring.LinuxFiles;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.wire.IoQueueLayout;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The host side of the reads tasks ask for (docs/PROTOCOL.md, "Reads a task asks for"), vyre's
 * {@code ResidentIoLoop} (docs/PORTS.md, "Ingest and the IO loop"): threads that claim each READ
 * request a handler published into the IO queue, read the file range into the start of the
 * destination resource, and complete the request OK or ERROR. A handler that asked (CUDA
 * {@code vyre_io_read}, Java {@code SlotContext.ioRead}) yields until it sees the verdict, then
 * uses the bytes.
 *
 * <p>Sources are files the host opens here ({@link #open}); their ids start at 1, and source 0
 * with 0 bytes is a handshake that completes OK at once (vyre's zero-byte LOAD_MISS request). A
 * destination with a native host view (any resource on the reference backend, a HOST_MAPPED one
 * on CUDA) is read into directly; any other (a CUDA DEVICE resource) into a host bounce buffer,
 * then copied with {@code session.writeResource}. A request that cannot be served (unknown source
 * or resource, a range past the file's end or the resource's, an op other than READ or FENCE)
 * completes ERROR and is counted with its reason in {@link #stats}.
 *
 * <p>Thread {@code i} of {@link #threads()} (an {@link IoPumpThread}) owns the IO slots {@code i}, {@code i + threads()},
 * ... (a kernel takes free slots from 0 up, so requests in flight spread over the threads), with
 * no hand-off between threads. How it reads ({@link ReadPath}, said by {@link #reader()}): on the
 * io_uring path, as vyre's loop does, each thread has a ring of its own
 * ({@link IoUringRangeReader}); a poll claims every PUBLISHED request of its slots, queues a read
 * for each, submits them all with one io_uring_enter, and completes each request when its
 * completion arrives, so every slot of a thread can have its read in flight, from the page cache
 * or the disk, while the thread goes on polling. The reads are plain READs, not vyre's READ_FIXED:
 * resources are allocated whenever a program likes after the pump starts, and registering each
 * with every thread's ring would pin them all ({@link IoUringRangeReader} says more). A read into
 * a bounce buffer has a buffer of its own per IO slot, since those reads run at once too. Where
 * io_uring does not work ({@link IoBackends#availability()}: an old kernel, a seccomp filter), or
 * when {@link ReadPath#FILE_CHANNEL} is asked for, a thread serves its requests one at a time with
 * blocking positional {@code FileChannel} reads and one bounce buffer, so there are as many reads
 * in flight as threads.
 *
 * <p>A thread polls its status words (and its ring's completions), yielding between polls, for
 * 100 µs after the last request or completion it handled (a task that reads again soon, or the
 * next of a stream, finds it awake: a parked thread wakes late by Linux's default timer slack),
 * then parks 10 µs doubling to 100 µs as vyre's loop does, so an idle pump costs a few thousand
 * wake-ups a second per thread. It parks so with reads in flight too: a completion then waits in
 * the ring for up to 100 µs, little next to a read that has gone to the disk, while a thread that
 * yielded through such reads took the cores the tasks need ({@code IdleStrategy} has the
 * measurements). It runs from the first {@link #of} call for a kernel until the kernel shuts down.
 */
public final class IoRequestPump implements AutoCloseable {

  /** {@code <sys/stat.h>}: the file-type bits of st_mode, and the types a positional read cannot serve. */
  private static final int S_IFMT = 0170000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFSOCK = 0140000;

  /** How the pump's threads read the ranges requests ask for. */
  public enum ReadPath {
    /**
     * A ring per thread with the reads of all its IO slots in flight at once, where io_uring works;
     * else {@link #FILE_CHANNEL}, and {@link #reader()} says why.
     */
    IO_URING,
    /** Blocking positional {@code FileChannel} reads, one request at a time per thread. */
    FILE_CHANNEL
  }

  /**
   * What the pump has done so far: requests completed (OK or ERROR), of them failed (ERROR), and
   * why the last failed request failed, or null.
   */
  public record Stats(long completed, long failed, String lastFailure) {}

  /**
   * An open source: its channel, through which both paths open (and refuse) files alike and the
   * FileChannel path reads; on the io_uring path a descriptor of its own for the rings, else -1.
   */
  record Source(FileChannel channel, int fd) {}

  private final KernelSession session;
  private final MemorySegment queue;
  /** Source {@code id} is entry {@code id - 1}. */
  private final CopyOnWriteArrayList<Source> sources = new CopyOnWriteArrayList<>();
  private final ReadPath readPath;
  private final String reader;
  private final Thread[] threads;
  private volatile boolean stopping;
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile String lastFailure;

  /**
   * The pump that serves the reads {@code kernel}'s handlers ask for (docs/PROTOCOL.md, "Reads a task
   * asks for"), started by the first call and stopped by the kernel's shutdown: open the files
   * handlers read with {@code IoRequestPump.of(kernel).open(path)}. Until it runs, a handler's
   * request waits in the IO queue. It reads through io_uring where that works.
   */
  public static IoRequestPump of(Megakernel kernel) {
    return of(kernel, ReadPath.IO_URING);
  }

  /**
   * As {@link #of(Megakernel)}, reading as {@code asked} (FileChannel on purpose: to compare, or
   * where io_uring misbehaves). The first call for a kernel decides; later calls return that pump.
   */
  public static IoRequestPump of(Megakernel kernel, ReadPath asked) {
    return kernel.service(IoRequestPump.class, session -> new IoRequestPump(session, defaultThreads(), asked));
  }

  /** A pump of {@link #defaultThreads()} threads on the io_uring path where it works. */
  public IoRequestPump(KernelSession session) {
    this(session, defaultThreads());
  }

  /** A pump of {@code threadCount} threads (1..64) on the io_uring path where it works. */
  public IoRequestPump(KernelSession session, int threadCount) {
    this(session, threadCount, ReadPath.IO_URING);
  }

  /** A pump of {@code threadCount} threads (1..64) that reads as {@code asked}. */
  public IoRequestPump(KernelSession session, int threadCount, ReadPath asked) {
    if (threadCount < 1 || threadCount > IoQueueLayout.IO_SLOT_COUNT) {
      throw InputException.of("IO pump threads", threadCount + " is not 1.." + IoQueueLayout.IO_SLOT_COUNT,
          "pass a thread count from 1 to the IO queue's " + IoQueueLayout.IO_SLOT_COUNT + " slots");
    }
    this.session = session;
    this.queue = session.memory().ioQueue();
    IoPumpThread[] servers = new IoPumpThread[threadCount];
    String unavailable = null;
    if (asked == ReadPath.IO_URING) {
      unavailable = IoBackends.availability().available() ? null : IoBackends.availability().detail();
    }
    if (asked == ReadPath.IO_URING && unavailable == null) {
      try {
        for (int i = 0; i < threadCount; i++) {
          servers[i] = new IoPumpThread(this, i, threadCount, true);
        }
      } catch (PipelineException e) {
        for (IoPumpThread server : servers) {
          if (server != null) {
            server.close();
          }
        }
        unavailable = "io_uring setup for the pump failed: " + e.getMessage();
      }
    }
    if (asked == ReadPath.FILE_CHANNEL || unavailable != null) {
      for (int i = 0; i < threadCount; i++) {
        servers[i] = new IoPumpThread(this, i, threadCount, false);
      }
    }
    this.readPath = asked == ReadPath.IO_URING && unavailable == null ? ReadPath.IO_URING : ReadPath.FILE_CHANNEL;
    this.reader = readPath == ReadPath.IO_URING ? "io_uring (a ring per thread, all its IO slots' reads in flight)"
        : unavailable == null ? "FileChannel" : "FileChannel (" + unavailable + ")";
    this.threads = new Thread[threadCount];
    for (int i = 0; i < threadCount; i++) {
      threads[i] = Thread.ofPlatform().daemon().name("vyre-io-pump-" + i).unstarted(servers[i]::run);
    }
    for (Thread thread : threads) {
      thread.start();
    }
  }

  /**
   * One thread per four cores, 1 to 4: one thread's reads from the page cache run at a single
   * core's copy rate, and the pump should not take the cores the tasks' publishers need.
   */
  public static int defaultThreads() {
    return Math.clamp(Runtime.getRuntime().availableProcessors() / 4, 1, 4);
  }

  public int threads() {
    return threads.length;
  }

  /** The path the threads read on: {@link ReadPath#FILE_CHANNEL} where io_uring was asked for and does not work. */
  public ReadPath readPath() {
    return readPath;
  }

  /** How the pump reads, for logs and {@code vyre bench io}: io_uring, or FileChannel and why. */
  public String reader() {
    return reader;
  }

  /** Opens {@code file} for reading and returns its source id (1, 2, ...), which handlers pass to their reads. */
  public synchronized int open(Path file) {
    if (stopping) {
      throw InputException.of(file.toString(), "the kernel is shut down", "open IO sources while the kernel runs");
    }
    String notReadable = positionallyUnreadable(file);
    if (notReadable != null) {
      throw InputException.of(file.toString(), notReadable, "open a regular file or a device");
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.READ);
    } catch (IOException | RuntimeException e) {
      throw InputException.of(file.toString(), "cannot be opened for reading (" + e.getMessage() + ")",
          "check that the file exists and is readable");
    }
    int fd = -1;
    if (readPath == ReadPath.IO_URING) {
      try {
        fd = LinuxFiles.openReadOnly(file);
      } catch (PipelineException e) {
        close(channel);
        // The syscall's failure names its errno; its own fix would repeat the one below.
        throw InputException.of(file.toString(), "cannot be opened for io_uring reads (open failed with errno "
            + e.fields().get("errno") + ")", "check that the file exists and is readable, and the process's open-file limit");
      }
    }
    sources.add(new Source(channel, fd));
    return sources.size();
  }

  /**
   * Why {@code file} cannot be a source at all, or null: a FIFO or a socket, whose open would wait
   * for a writer and whose reads have no offsets (ESPIPE). Anything else is left to the open and
   * the reads, which fail with the system's reason (a directory's with EISDIR).
   */
  private static String positionallyUnreadable(Path file) {
    try {
      int type = (Integer) Files.getAttribute(file, "unix:mode") & S_IFMT;
      return type == S_IFIFO ? "is a FIFO (a named pipe): its reads have no offsets, and opening it waits for a writer"
          : type == S_IFSOCK ? "is a socket: its reads have no offsets" : null;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return null;
    }
  }

  public Stats stats() {
    return new Stats(completed.get(), failed.get(), lastFailure);
  }

  /**
   * Stops the threads and closes the sources. Each thread first waits for its reads in flight to
   * end and completes their requests, so no read writes into a resource or the queue once this
   * returns. The kernel calls it once it has exited, before it frees the queue and the resources;
   * a request still PUBLISHED is left as it is.
   */
  @Override
  public void close() {
    stopping = true;
    for (Thread thread : threads) {
      LockSupport.unpark(thread);
    }
    try {
      for (Thread thread : threads) {
        thread.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Source source : sources) {
      close(source.channel());
      if (source.fd() >= 0) {
        LinuxFiles.close(source.fd());
      }
    }
  }

  private static void close(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // Read-only channels: nothing is lost if one fails to close.
    }
  }

  // ---------------------------------------------------------------- for the pump's threads

  KernelSession session() {
    return session;
  }

  MemorySegment queue() {
    return queue;
  }

  boolean stopping() {
    return stopping;
  }

  int sourceCount() {
    return sources.size();
  }

  /** Source {@code id} (1, 2, ...), opened by {@link #open}. */
  Source source(int id) {
    return sources.get(id - 1);
  }

  /** A request completed: OK when {@code failure} is null, else ERROR, and why. */
  void counted(String failure) {
    if (failure != null) {
      lastFailure = failure;
      failed.incrementAndGet();
    }
    completed.incrementAndGet();
  }

  /** Something a thread could not report through a request's status (the queue went away under it). */
  void noted(String why) {
    lastFailure = why;
  }
}

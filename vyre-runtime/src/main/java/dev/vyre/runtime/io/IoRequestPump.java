package dev.vyre.runtime.io;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.io.uring.IoUringRangeReader;
import dev.vyre.runtime.io.uring.LinuxFiles;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The host side of the reads tasks ask for (docs/PROTOCOL.md, "Reads a task asks for"), vyre's
 * {@code ResidentIoLoop} (vyre-runtime.md §7.2): threads that claim each READ request a handler
 * published into the IO queue, read the file range into the start of the destination resource,
 * and complete the request OK or ERROR. A handler that asked (CUDA {@code vyre_io_read}, Java
 * {@code SlotContext.ioRead}) yields until it sees the verdict, then uses the bytes.
 *
 * <p>Sources are files the host opens here ({@link #open}); their ids start at 1, and source 0
 * with 0 bytes is a handshake that completes OK at once (vyre's zero-byte LOAD_MISS request). A
 * destination with a native host view (any resource on the reference backend, a HOST_MAPPED one
 * on CUDA) is read into directly; any other (a CUDA DEVICE resource) into a host bounce buffer,
 * then copied with {@code session.writeResource}. A request that cannot be served (unknown source
 * or resource, a range past the file's end or the resource's, an op other than READ or FENCE)
 * completes ERROR and is counted with its reason in {@link #stats}.
 *
 * <p>Thread {@code i} of {@link #threads()} owns the IO slots {@code i}, {@code i + threads()},
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
 * next of a stream, finds it awake: a parked thread wakes 50 µs late on Linux's default timer
 * slack), then parks 10 µs doubling to 100 µs as vyre's loop does, so an idle pump costs a few
 * thousand wake-ups a second per thread. It parks so with reads in flight too: a completion then
 * waits in the ring for up to 100 µs, little next to a read that has gone to the disk, while a
 * thread that yielded through such reads took the cores the tasks need (on the 2-core dev VM, four
 * times the involuntary context switches and cold loads 15 % slower). It runs from the first
 * {@code Megakernel.ioPump()} call until the kernel shuts down.
 */
public final class IoRequestPump implements AutoCloseable {

  private static final long SPIN_NANOS = 100_000;
  private static final long FIRST_PARK_NANOS = 10_000;
  private static final long LONGEST_PARK_NANOS = 100_000;

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
  private record Source(FileChannel channel, int fd) {}

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
    Server[] servers = new Server[threadCount];
    String unavailable = null;
    if (asked == ReadPath.IO_URING) {
      unavailable = IoBackends.availability().available() ? null : IoBackends.availability().detail();
    }
    if (asked == ReadPath.IO_URING && unavailable == null) {
      try {
        for (int i = 0; i < threadCount; i++) {
          servers[i] = new Server(i, threadCount, true);
        }
      } catch (PipelineException e) {
        for (Server server : servers) {
          if (server != null) {
            server.ring.close();
          }
        }
        unavailable = "io_uring setup for the pump failed: " + e.getMessage();
      }
    }
    if (asked == ReadPath.FILE_CHANNEL || unavailable != null) {
      for (int i = 0; i < threadCount; i++) {
        servers[i] = new Server(i, threadCount, false);
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

  /**
   * One pump thread's work: IO slots {@code first}, {@code first + stride}, ..., the one at index
   * {@code k} of them tagged {@code k} in this thread's ring and bounce buffers.
   */
  private final class Server {

    private final int first;
    private final int stride;
    /** This thread's reads on the io_uring path; null on the FileChannel path. */
    private final IoUringRangeReader ring;
    /**
     * Per tag on the io_uring path, one on the FileChannel path: a host buffer for reads into a
     * resource without a host view (grown on demand), the slice of it the current read fills (the
     * same again when the size repeats, so the steady state allocates nothing), and that
     * resource, or -1 while the read goes straight into a host view.
     */
    private final MemorySegment[] bounce;
    private final MemorySegment[] staged;
    private final int[] stagedFor;

    Server(int first, int stride, boolean ioUring) {
      this.first = first;
      this.stride = stride;
      int slots = (IoQueueLayout.IO_SLOT_COUNT - first + stride - 1) / stride;
      this.ring = ioUring ? new IoUringRangeReader(slots, this::finished) : null;
      int buffers = ioUring ? slots : 1;
      bounce = new MemorySegment[buffers];
      staged = new MemorySegment[buffers];
      stagedFor = new int[buffers];
      Arrays.fill(bounce, MemorySegment.NULL);
      Arrays.fill(staged, MemorySegment.NULL);
    }

    void run() {
      long lastServed = System.nanoTime();
      int parks = 0;
      try {
        while (!stopping) {
          if (serveAll() > 0) {
            lastServed = System.nanoTime();
            parks = 0;
          } else if (System.nanoTime() - lastServed < SPIN_NANOS) {
            // Yield rather than spin: on a small machine the task that asks next needs this core.
            Thread.yield();
          } else {
            LockSupport.parkNanos(IoRequestPump.this, Math.min(FIRST_PARK_NANOS << Math.min(parks++, 7), LONGEST_PARK_NANOS));
          }
        }
      } catch (RuntimeException e) {
        // The queue went away under the pump (the kernel's memory freed by a failure): nothing left to serve.
        lastFailure = "the pump stopped: " + e;
      } finally {
        if (ring != null) {
          // Reads in flight write by address into resources and bounce buffers: they end first.
          ring.close();
        }
      }
    }

    /**
     * Takes the completions that arrived, claims and serves every PUBLISHED request in this
     * thread's slots, submits the reads that started and takes their completions again: a read of
     * cached pages has completed by the time io_uring_enter returns, so its request completes in
     * the same poll. Returns how many completions and requests there were.
     */
    private int serveAll() {
      int count = ring == null ? 0 : ring.reap();
      for (int slot = first; slot < IoQueueLayout.IO_SLOT_COUNT; slot += stride) {
        long status = IoQueueLayout.word(slot, IoQueueLayout.STATUS);
        if (Words.getAcquire(queue, status) != SlotLayout.STATUS_PUBLISHED) {
          continue;
        }
        Words.setRelease(queue, status, SlotLayout.STATUS_CLAIMED);
        serve(slot);
        count++;
      }
      if (ring != null) {
        ring.submit();
        count += ring.reap();
      }
      return count;
    }

    /**
     * Serves one claimed request: completes it now, or starts its read, which completes it when
     * it ends ({@link #finish}).
     */
    private void serve(int slot) {
      int op = field(slot, IoQueueLayout.OP_TYPE);
      if (op == IoQueueLayout.OP_FENCE) {
        complete(slot, null);
        return;
      }
      if (op != IoQueueLayout.OP_READ) {
        complete(slot, "op " + op + " is not READ (1) or FENCE (3)");
        return;
      }
      int source = field(slot, IoQueueLayout.SRC_HANDLE);
      int destination = field(slot, IoQueueLayout.DST_HANDLE);
      long offset = offset(slot);
      long bytes = bytes(slot);
      if (source == 0 && bytes == 0) {
        complete(slot, null);
        return;
      }
      if (source <= 0 || source > sources.size()) {
        complete(slot, "source " + Integer.toUnsignedString(source) + " is not open (" + sources.size()
            + " open: ioPump().open gives ids from 1)");
        return;
      }
      if (offset < 0) {
        complete(slot, "offset " + Long.toUnsignedString(offset) + " is past any file");
        return;
      }
      int buffer = ring == null ? 0 : (slot - first) / stride;
      try {
        MemorySegment view = session.resource(destination);
        MemorySegment target;
        if (view != null && view.isNative()) {
          if (bytes > view.byteSize()) {
            complete(slot, bytes + " bytes do not fit resource " + destination + " of " + view.byteSize() + " bytes");
            return;
          }
          target = view;
          stagedFor[buffer] = -1;
        } else {
          target = staging(buffer, bytes);
          stagedFor[buffer] = destination;
        }
        Source file = sources.get(source - 1);
        if (ring != null) {
          ring.read(buffer, file.fd(), offset, target, bytes);
        } else {
          finish(slot, buffer, FileReads.readAt(file.channel(), target.asSlice(0, bytes).asByteBuffer(), offset), null);
        }
      } catch (IOException | RuntimeException e) {
        complete(slot, readFailed(slot, e.getMessage()));
      }
    }

    /** Bounce buffer {@code buffer}'s first {@code bytes} bytes. */
    private MemorySegment staging(int buffer, long bytes) {
      if (staged[buffer].byteSize() != bytes) {
        if (bounce[buffer].byteSize() < bytes) {
          bounce[buffer] = Arena.ofAuto().allocate(bytes, 4096);
        }
        staged[buffer] = bounce[buffer].asSlice(0, bytes);
      }
      return staged[buffer];
    }

    /** {@link IoUringRangeReader.Finished}: the read of the slot tagged {@code tag} ended. */
    private void finished(int tag, long bytesRead, String failure) {
      int slot = first + tag * stride;
      try {
        finish(slot, tag, bytesRead, failure);
      } catch (RuntimeException e) {
        // The queue went away under the pump; the ring still waits for its other reads.
        lastFailure = "IO slot " + slot + " could not be completed: " + e;
      }
    }

    /**
     * A read ended after {@code bytesRead} bytes, or failed: the bytes staged in bounce buffer
     * {@code buffer} go to their resource, and the request completes.
     */
    private void finish(int slot, int buffer, long bytesRead, String failure) {
      long bytes = bytes(slot);
      String problem = null;
      if (failure != null) {
        problem = readFailed(slot, failure);
      } else if (bytesRead < bytes) {
        problem = "the file ends at byte " + (offset(slot) + bytesRead) + ", before the " + bytes + " bytes asked for at "
            + offset(slot);
      } else if (stagedFor[buffer] >= 0) {
        try {
          session.writeResource(stagedFor[buffer], 0, staged[buffer]);
        } catch (RuntimeException e) {
          problem = readFailed(slot, e.getMessage());
        }
      }
      complete(slot, problem);
    }

    /** Gives a claimed request its verdict: OK when {@code problem} is null, else ERROR, counted with why. */
    private void complete(int slot, String problem) {
      if (problem != null) {
        lastFailure = "IO slot " + slot + ": " + problem;
        failed.incrementAndGet();
      }
      completed.incrementAndGet();
      Words.setRelease(queue, IoQueueLayout.word(slot, IoQueueLayout.STATUS),
          problem == null ? IoQueueLayout.STATUS_OK : IoQueueLayout.STATUS_ERROR);
    }
  }

  private String readFailed(int slot, String why) {
    return "reading " + bytes(slot) + " bytes at " + offset(slot) + " of source " + field(slot, IoQueueLayout.SRC_HANDLE)
        + " into resource " + field(slot, IoQueueLayout.DST_HANDLE) + " failed: " + why;
  }

  private long offset(int slot) {
    return Integer.toUnsignedLong(field(slot, IoQueueLayout.OFFSET_HI)) << 32
        | Integer.toUnsignedLong(field(slot, IoQueueLayout.OFFSET_LO));
  }

  private long bytes(int slot) {
    return Integer.toUnsignedLong(field(slot, IoQueueLayout.BYTE_COUNT));
  }

  private int field(int slot, int field) {
    return Words.get(queue, IoQueueLayout.word(slot, field));
  }
}

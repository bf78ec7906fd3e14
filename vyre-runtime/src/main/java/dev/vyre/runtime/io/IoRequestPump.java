package dev.vyre.runtime.io;

import dev.vyre.driver.error.InputException;
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
 * destination with a host view (any resource on the reference backend, a HOST_MAPPED one on CUDA)
 * is read into directly; a CUDA DEVICE resource through a host buffer and a copy. A request that
 * cannot be served (unknown source or resource, a range past the file's end or the resource's,
 * an op other than READ or FENCE) completes ERROR and is counted with its reason in {@link #stats}.
 *
 * <p>Thread {@code i} of {@link #threads()} owns the IO slots {@code i}, {@code i + threads()},
 * ... (a kernel takes free slots from 0 up, so requests in flight spread over the threads) and
 * serves them one at a time: many reads run at once, with no hand-off between threads. A thread
 * polls its status words, yielding between polls, for 100 µs after the last request it served (a
 * task that reads again soon, or the next of a stream, finds it awake: a parked thread wakes 50 µs
 * late on Linux's default timer slack), then parks 10 µs doubling to 100 µs as vyre's loop does,
 * so an idle pump costs a few thousand wake-ups a second per thread. It runs from the first
 * {@code Megakernel.ioPump()} call until the kernel shuts down.
 */
public final class IoRequestPump implements AutoCloseable {

  private static final long SPIN_NANOS = 100_000;
  private static final long FIRST_PARK_NANOS = 10_000;
  private static final long LONGEST_PARK_NANOS = 100_000;

  /**
   * What the pump has done so far: requests completed (OK or ERROR), of them failed (ERROR), and
   * why the last failed request failed, or null.
   */
  public record Stats(long completed, long failed, String lastFailure) {}

  private final KernelSession session;
  private final MemorySegment queue;
  /** Source {@code id} is entry {@code id - 1}. */
  private final CopyOnWriteArrayList<FileChannel> sources = new CopyOnWriteArrayList<>();
  private final Thread[] threads;
  private volatile boolean stopping;
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile String lastFailure;

  /** A pump of {@link #defaultThreads()} threads. */
  public IoRequestPump(KernelSession session) {
    this(session, defaultThreads());
  }

  /** A pump of {@code threadCount} threads (1..64). */
  public IoRequestPump(KernelSession session, int threadCount) {
    if (threadCount < 1 || threadCount > IoQueueLayout.IO_SLOT_COUNT) {
      throw InputException.of("IO pump threads", threadCount + " is not 1.." + IoQueueLayout.IO_SLOT_COUNT,
          "pass a thread count from 1 to the IO queue's " + IoQueueLayout.IO_SLOT_COUNT + " slots");
    }
    this.session = session;
    this.queue = session.memory().ioQueue();
    this.threads = new Thread[threadCount];
    for (int i = 0; i < threadCount; i++) {
      threads[i] = Thread.ofPlatform().daemon().name("vyre-io-pump-" + i).unstarted(new Server(i, threadCount)::run);
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

  /** Opens {@code file} for reading and returns its source id (1, 2, ...), which handlers pass to their reads. */
  public synchronized int open(Path file) {
    if (stopping) {
      throw InputException.of(file.toString(), "the kernel is shut down", "open IO sources while the kernel runs");
    }
    try {
      sources.add(FileChannel.open(file, StandardOpenOption.READ));
      return sources.size();
    } catch (IOException | RuntimeException e) {
      throw InputException.of(file.toString(), "cannot be opened for reading (" + e.getMessage() + ")",
          "check that the file exists and is readable");
    }
  }

  public Stats stats() {
    return new Stats(completed.get(), failed.get(), lastFailure);
  }

  /**
   * Stops the threads and closes the sources. The kernel calls it once it has exited, before it
   * frees the queue; a request still in the queue is left as it is.
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
    for (FileChannel source : sources) {
      try {
        source.close();
      } catch (IOException ignored) {
        // Read-only channels: nothing is lost if one fails to close.
      }
    }
  }

  /** One pump thread's work: IO slots {@code first}, {@code first + stride}, ... */
  private final class Server {

    private final int first;
    private final int stride;
    /** Where reads into a resource without a host view land first. */
    private MemorySegment bounce = MemorySegment.NULL;

    Server(int first, int stride) {
      this.first = first;
      this.stride = stride;
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
      }
    }

    /** Claims and serves every PUBLISHED request in this thread's slots; returns how many. */
    private int serveAll() {
      int count = 0;
      for (int slot = first; slot < IoQueueLayout.IO_SLOT_COUNT; slot += stride) {
        long status = IoQueueLayout.word(slot, IoQueueLayout.STATUS);
        if (Words.getAcquire(queue, status) != SlotLayout.STATUS_PUBLISHED) {
          continue;
        }
        Words.setRelease(queue, status, SlotLayout.STATUS_CLAIMED);
        String problem = serve(slot);
        if (problem != null) {
          lastFailure = "IO slot " + slot + ": " + problem;
          failed.incrementAndGet();
        }
        completed.incrementAndGet();
        Words.setRelease(queue, status, problem == null ? IoQueueLayout.STATUS_OK : IoQueueLayout.STATUS_ERROR);
        count++;
      }
      return count;
    }

    /** Serves one claimed request; null when it succeeded, else why it failed. */
    private String serve(int slot) {
      int op = field(slot, IoQueueLayout.OP_TYPE);
      if (op == IoQueueLayout.OP_FENCE) {
        return null;
      }
      if (op != IoQueueLayout.OP_READ) {
        return "op " + op + " is not READ (1) or FENCE (3)";
      }
      int source = field(slot, IoQueueLayout.SRC_HANDLE);
      int destination = field(slot, IoQueueLayout.DST_HANDLE);
      long offset = Integer.toUnsignedLong(field(slot, IoQueueLayout.OFFSET_HI)) << 32
          | Integer.toUnsignedLong(field(slot, IoQueueLayout.OFFSET_LO));
      long bytes = Integer.toUnsignedLong(field(slot, IoQueueLayout.BYTE_COUNT));
      if (source == 0 && bytes == 0) {
        return null;
      }
      if (source <= 0 || source > sources.size()) {
        return "source " + Integer.toUnsignedString(source) + " is not open (" + sources.size() + " open: ioPump().open gives ids from 1)";
      }
      if (offset < 0) {
        return "offset " + Long.toUnsignedString(offset) + " is past any file";
      }
      try {
        MemorySegment view = session.resource(destination);
        if (view != null) {
          if (bytes > view.byteSize()) {
            return bytes + " bytes do not fit resource " + destination + " of " + view.byteSize() + " bytes";
          }
          return read(sources.get(source - 1), offset, view.asSlice(0, bytes));
        }
        if (bounce.byteSize() < bytes) {
          bounce = Arena.ofAuto().allocate(bytes, 4096);
        }
        MemorySegment staged = bounce.asSlice(0, bytes);
        String problem = read(sources.get(source - 1), offset, staged);
        if (problem == null) {
          session.writeResource(destination, 0, staged);
        }
        return problem;
      } catch (IOException | RuntimeException e) {
        return "reading " + bytes + " bytes at " + offset + " of source " + source + " into resource " + destination + " failed: " + e.getMessage();
      }
    }
  }

  /** Reads {@code target.byteSize()} bytes at {@code offset}; null when all arrived, else why not. */
  private static String read(FileChannel file, long offset, MemorySegment target) throws IOException {
    int read = FileReads.readAt(file, target.asByteBuffer(), offset);
    return read == target.byteSize() ? null
        : "the file ends at byte " + (offset + read) + ", before the " + target.byteSize() + " bytes asked for at " + offset;
  }

  private int field(int slot, int field) {
    return Words.get(queue, IoQueueLayout.word(slot, field));
  }
}

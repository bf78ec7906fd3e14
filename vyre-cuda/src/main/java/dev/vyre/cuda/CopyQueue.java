package dev.vyre.cuda;

import dev.vyre.cuda.internal.CudaContext;
import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.internal.Releases;
import java.lang.foreign.MemorySegment;

/**
 * Host-to-device copies on a stream of their own, run by the copy engine beside the megakernel
 * (both streams are non-blocking) while the host goes on. Copies are numbered from 0 and finish
 * in that order, so one event per copy, reused round a ring of {@link #EVENTS}, tells how far the
 * stream got. Not thread-safe: {@link CudaSession} calls it under its lock.
 */
final class CopyQueue implements AutoCloseable {

  /** Copies in flight before starting another waits for the oldest. */
  static final int EVENTS = 64;

  private final CudaDriver driver;
  private final CudaContext context;
  private final MemorySegment stream;
  private final MemorySegment[] events = new MemorySegment[EVENTS];
  private long started;
  /** Every copy numbered below this has finished. */
  private long finishedBelow;

  CopyQueue(CudaDriver driver, CudaContext context) {
    this.driver = driver;
    this.context = context;
    context.makeCurrent();
    this.stream = driver.createStream();
    try {
      for (int i = 0; i < EVENTS; i++) {
        events[i] = driver.createEvent();
      }
    } catch (RuntimeException e) {
      // Free what was created: the session never sees this queue, so nothing else would.
      for (MemorySegment event : events) {
        if (event != null) {
          driver.destroyEvent(event);
        }
      }
      driver.destroyStream(stream);
      throw e;
    }
  }

  /** Queues a copy from pinned host memory and returns its number. */
  long start(long device, MemorySegment pinnedHost) {
    context.makeCurrent();
    if (started - finishedBelow == EVENTS) {
      driver.synchronizeEvent(events[(int) (finishedBelow % EVENTS)]);
      finishedBelow++;
    }
    driver.copyToDeviceAsync(device, pinnedHost, pinnedHost.byteSize(), stream);
    driver.recordEvent(events[(int) (started % EVENTS)], stream);
    return started++;
  }

  /** Asks the driver only about copies not yet known to have finished (polled in the scan's loop). */
  boolean finished(long copy) {
    if (copy < finishedBelow) {
      return true;
    }
    context.makeCurrent();
    while (finishedBelow <= copy && finishedBelow < started && driver.eventReached(events[(int) (finishedBelow % EVENTS)])) {
      finishedBelow++;
    }
    return copy < finishedBelow;
  }

  /** Waits for every queued copy, then frees the stream and events. */
  @Override
  public void close() {
    context.makeCurrent();
    driver.synchronizeStreamRaw(stream);
    Releases releases = new Releases();
    releases.add(() -> driver.destroyStream(stream));
    for (MemorySegment event : events) {
      releases.add(() -> driver.destroyEvent(event));
    }
    releases.releaseAll();
  }
}

package dev.vyre.observe.telemetry;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.wire.ControlLayout;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Live telemetry for a running megakernel: snapshots its control block and ring (copies, so the
 * kernel never stops), decodes them, and feeds vyre's watchdog with consecutive samples. Each
 * sample is published as {@link #latest()}, to listeners, and as JFR events
 * ({@code dev.vyre.TelemetrySample}, and {@code dev.vyre.KernelStall} when the watchdog flags a
 * stall); {@code TelemetryMeterBinder} exposes it to Micrometer.
 *
 * <p>Sample on demand with {@link #sample()} or every interval on a daemon thread with
 * {@link #start(Duration)}. A stalled kernel is flagged on the second sample that sees it stuck.
 * Thread-safe.
 */
public final class TelemetrySampler implements AutoCloseable {

  private final TelemetrySource source;
  private final int[] windowOpcodes;
  private final TelemetryDecodeScratch scratch = new TelemetryDecodeScratch();
  private final List<Consumer<TelemetrySample>> listeners = new CopyOnWriteArrayList<>();
  // Double buffer: each sample decodes into the older snapshot and compares it with the newer one.
  private RingTelemetry previous = new RingTelemetry();
  private RingTelemetry current = new RingTelemetry();
  private long previousHeartbeat;
  private long sequence;
  private long stalledSamples;
  private volatile long totalStalledSamples;
  private volatile TelemetrySample latest;
  private volatile VyreException lastError;
  private volatile boolean running;
  private Thread thread;

  /**
   * A sampler over any source.
   *
   * @param windowOpcodes route-window opcodes to group (u32 bit patterns), as in {@link RingTelemetry}
   */
  public TelemetrySampler(TelemetrySource source, int... windowOpcodes) {
    this.source = source;
    this.windowOpcodes = windowOpcodes.clone();
  }

  /** A sampler of a running {@link Megakernel} on any backend. */
  public static TelemetrySampler of(Megakernel kernel, int... windowOpcodes) {
    return new TelemetrySampler(TelemetrySource.of(kernel), windowOpcodes);
  }

  /** The source's name (the backend for a {@link Megakernel}). */
  public String name() {
    return source.name();
  }

  /**
   * Takes one sample now and publishes it.
   *
   * @throws PipelineException when the source returns a malformed snapshot
   */
  public synchronized TelemetrySample sample() {
    long now = System.nanoTime();
    byte[] control = source.controlSnapshot();
    byte[] ring = source.ringSnapshot();
    RingTelemetry next = previous;
    RingTelemetry.tryDecodeWithWindowOpcodesInto(control, ring, windowOpcodes, next, scratch);
    previous = current;
    current = next;
    MemorySegment words = MemorySegment.ofArray(control);
    long heartbeat = ControlLayout.readWord(words, ControlLayout.HEARTBEAT);
    MegakernelWatchdogSnapshot watchdog = sequence == 0 ? null : watchdog(current, previous);
    stalledSamples = watchdog != null && watchdog.suspectedStall() ? stalledSamples + 1 : 0;
    long heartbeatDelta = sequence == 0 ? 0 : Integer.toUnsignedLong((int) (heartbeat - previousHeartbeat));
    previousHeartbeat = heartbeat;
    TelemetrySample sample = new TelemetrySample(++sequence, now, current.runtimeCounters(), watchdog, heartbeat,
        heartbeatDelta, ControlLayout.readWord(words, ControlLayout.FAULT_COUNT),
        ControlLayout.readWord(words, ControlLayout.KERNEL_STATE) == ControlLayout.KERNEL_STATE_RUNNING, stalledSamples);
    if (sample.stalled()) {
      totalStalledSamples++;
    }
    latest = sample;
    emitEvents(sample);
    for (Consumer<TelemetrySample> listener : listeners) {
      listener.accept(sample);
    }
    return sample;
  }

  /** vyre's watchdog; a DONE_COUNT that moved backwards (u32 wrap or reset) starts a new epoch instead. */
  private static MegakernelWatchdogSnapshot watchdog(RingTelemetry now, RingTelemetry before) {
    try {
      return now.healthSince(before);
    } catch (PipelineException newEpoch) {
      return null;
    }
  }

  private void emitEvents(TelemetrySample sample) {
    TelemetrySampleEvent event = new TelemetrySampleEvent();
    if (event.shouldCommit()) {
      MegakernelRuntimeCounters c = sample.counters();
      event.kernel = source.name();
      event.totalSlots = c.totalSlots();
      event.queueDepth = c.queueDepth();
      event.gpuIdlePpm = c.gpuIdlePpm();
      event.frontierDensityBps = c.frontierDensityBps();
      event.occupancyProxyBps = c.occupancyProxyBps();
      event.doneCount = c.drainedSlots();
      event.doneDelta = sample.watchdog() == null ? 0 : sample.watchdog().doneDelta();
      event.tenantFairnessSkew = c.tenantFairnessSkew();
      event.requeueSlots = c.requeueSlots();
      event.faultSlots = c.faultSlots();
      event.heartbeatDelta = sample.heartbeatDelta();
      event.stalled = sample.stalled();
      event.commit();
    }
    if (sample.stalled()) {
      KernelStallEvent stall = new KernelStallEvent();
      if (stall.shouldCommit()) {
        stall.kernel = source.name();
        stall.queueDepth = sample.counters().queueDepth();
        stall.doneCount = sample.counters().drainedSlots();
        stall.heartbeatDelta = sample.heartbeatDelta();
        stall.requeueSlots = sample.counters().requeueSlots();
        stall.stalledSamples = sample.stalledSamples();
        stall.commit();
      }
    }
  }

  /** Calls {@code listener} with every later sample, on the sampling thread. */
  public void addListener(Consumer<TelemetrySample> listener) {
    listeners.add(listener);
  }

  /**
   * Samples every {@code interval} on a daemon thread until {@link #close()}. A malformed snapshot
   * does not stop it; see {@link #lastError()}.
   */
  public synchronized TelemetrySampler start(Duration interval) {
    if (thread != null) {
      throw PipelineException.invalidArgument("telemetry", "the sampler of " + source.name() + " is already started",
          "start a sampler once, or create another sampler");
    }
    long nanos = Math.max(interval.toNanos(), 1_000_000L);
    running = true;
    thread = Thread.ofPlatform().daemon().name("vyre-telemetry-" + source.name()).start(() -> loop(nanos));
    return this;
  }

  private void loop(long intervalNanos) {
    long next = System.nanoTime();
    while (running) {
      try {
        sample();
      } catch (VyreException e) {
        lastError = e;
      }
      next += intervalNanos;
      long wait = next - System.nanoTime();
      if (wait < 0) {
        // Fell behind (a slow decode or a paused JVM): skip the missed ticks rather than bursting.
        next = System.nanoTime();
      } else {
        java.util.concurrent.locks.LockSupport.parkNanos(this, wait);
      }
    }
  }

  /** The newest sample, or null before the first. */
  public TelemetrySample latest() {
    return latest;
  }

  /** How many samples so far suspected a stall. */
  public long totalStalledSamples() {
    return totalStalledSamples;
  }

  /** The last error of the background thread, or null. */
  public VyreException lastError() {
    return lastError;
  }

  /** Stops the background thread, if started, and waits for it. */
  @Override
  public void close() {
    Thread sampling;
    synchronized (this) {
      running = false;
      sampling = thread;
    }
    if (sampling != null) {
      java.util.concurrent.locks.LockSupport.unpark(sampling);
      try {
        sampling.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

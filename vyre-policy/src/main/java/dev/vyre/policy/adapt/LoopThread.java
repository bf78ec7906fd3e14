package dev.vyre.policy.adapt;

import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.ThreadEnds;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The daemon thread a loop over a running kernel samples on: calls its step at a cadence until
 * closed, or until a step throws a {@link VyreException} (the kernel closed or failed: its owner
 * reports that; the loop just ends, and keeps the exception for {@link #failure}).
 */
public final class LoopThread implements AutoCloseable {

  private final Runnable step;
  private final long cadenceNanos;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile VyreException failure;
  private volatile long steps;
  private volatile long busyNanos;
  private volatile long firstStepNanos;
  private volatile long slowestStepNanos;

  /**
   * What a loop's steps cost its thread so far: how many, their sum, the first (which meets the
   * kernel's telemetry cold) and the slowest.
   */
  public record Timing(long steps, long busyNanos, long firstStepNanos, long slowestStepNanos) {

    /** A loop stepped by hand: no thread, no steps on it. */
    public static final Timing NONE = new Timing(0, 0, 0, 0);

    /** One line for a report: the steps and their cost in microseconds. */
    public String line() {
      return String.format("%d steps, first %.0f us, slowest %.0f us, %.1f ms in all", steps, firstStepNanos / 1e3,
          slowestStepNanos / 1e3, busyNanos / 1e6);
    }
  }

  private LoopThread(String name, Duration cadence, Runnable step) {
    this.step = step;
    this.cadenceNanos = cadence.toNanos();
    this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this::run);
  }

  /** Whether {@code -Dvyre.policy.loop=off} asks that no loop run over a kernel (its boot sizes stay). */
  public static boolean switchedOff() {
    return "off".equals(System.getProperty("vyre.policy.loop"));
  }

  /** Starts calling {@code step} every {@code cadence} on a daemon thread named {@code name}. */
  public static LoopThread start(String name, Duration cadence, Runnable step) {
    LoopThread loop = new LoopThread(name, cadence, step);
    loop.thread.start();
    return loop;
  }

  private void run() {
    while (running) {
      long start = System.nanoTime();
      try {
        step.run();
      } catch (VyreException e) {
        failure = e;
        return;
      }
      long took = System.nanoTime() - start;
      if (steps == 0) {
        firstStepNanos = took;
      }
      slowestStepNanos = Math.max(slowestStepNanos, took);
      busyNanos += took;
      steps++;
      LockSupport.parkNanos(cadenceNanos);
    }
  }

  /** What ended the thread early, or null. */
  public VyreException failure() {
    return failure;
  }

  /** What the steps have cost so far (exact once {@link #close} returned). */
  public Timing timing() {
    return new Timing(steps, busyNanos, firstStepNanos, slowestStepNanos);
  }

  /** Stops the thread and waits for it. */
  @Override
  public void close() {
    running = false;
    LockSupport.unpark(thread);
    ThreadEnds.await(thread);
  }
}

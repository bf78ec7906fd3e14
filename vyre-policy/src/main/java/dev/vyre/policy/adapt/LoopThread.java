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
      try {
        step.run();
      } catch (VyreException e) {
        failure = e;
        return;
      }
      LockSupport.parkNanos(cadenceNanos);
    }
  }

  /** What ended the thread early, or null. */
  public VyreException failure() {
    return failure;
  }

  /** Stops the thread and waits for it. */
  @Override
  public void close() {
    running = false;
    LockSupport.unpark(thread);
    ThreadEnds.await(thread);
  }
}

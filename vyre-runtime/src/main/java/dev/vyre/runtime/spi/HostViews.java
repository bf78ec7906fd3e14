package dev.vyre.runtime.spi;

import dev.vyre.runtime.IdleStrategy;
import java.lang.foreign.Arena;
import java.time.Duration;

/**
 * How a session ends the host views it handed out ({@link KernelMemory}, resource segments) before
 * it frees the memory under them. Every view is scoped to one shared {@link Arena}; closing it
 * makes each later access throw {@link IllegalStateException}, and an access in progress on another
 * thread at that moment throws too (the JDK's close handshake), so no holder of a view (a waiter
 * racing shutdown) ever reads freed memory. What this costs an access is the arena's liveness
 * check, a plain field read: the hot path still allocates nothing.
 */
public final class HostViews {

  /** Between tries to close: the operation holding the arena (a read into a chunk) takes a while. */
  private static final IdleStrategy RETRY = IdleStrategy.sleeping(100_000);

  private HostViews() {}

  /**
   * Closes {@code views}; true once they are closed (also when they already were). An operation
   * that holds the arena while it runs (a FileChannel read into a chunk buffer, a native call
   * given a view) makes close fail, so this tries again until {@code patience} has passed and
   * then returns false: the caller must not free the memory then. An interrupt neither cuts the
   * wait short nor is lost.
   */
  public static boolean end(Arena views, Duration patience) {
    long deadline = System.nanoTime() + patience.toNanos();
    boolean interrupted = Thread.interrupted();
    try {
      while (views.scope().isAlive()) {
        try {
          views.close();
          return true;
        } catch (IllegalStateException held) {
          if (System.nanoTime() - deadline > 0) {
            return !views.scope().isAlive();
          }
          RETRY.idle();
          interrupted |= Thread.interrupted();
        }
      }
      return true;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

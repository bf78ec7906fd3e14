package dev.vyre.runtime.spi;

import dev.vyre.runtime.IdleStrategy;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a session ends the host views it handed out ({@link KernelMemory}, resource segments) before
 * it frees the memory under them. Every view is scoped to one shared {@link Arena}; closing it
 * makes each later access throw {@link IllegalStateException}, and an access in progress on another
 * thread at that moment throws too (the JDK's close handshake), so no holder of a view (a waiter
 * racing shutdown) ever reads freed memory. What this costs an access is the arena's liveness
 * check, a plain field read: the hot path still allocates nothing.
 *
 * <p>A read the kernel performs into a view (io_uring) holds no arena: it has only the address. Its
 * submitter {@link #hold}s the view's scope until the read came back, and {@link #endAfterHeldReads}
 * waits for the holds before it closes: the reference backend's memory, freed under such a read,
 * was written after its free and the JVM crashed in libc.
 */
public final class HostViews {

  /** Between tries to close: the operation holding the arena (a read into a chunk) takes a while. */
  private static final IdleStrategy RETRY = IdleStrategy.sleeping(100_000);
  /** Set in a scope's hold count once {@link #end} began: no hold is taken any more. */
  private static final int ENDING = Integer.MIN_VALUE;
  /** Holds per scope with any, and the scopes being ended (with {@link #ENDING} set). */
  private static final Map<MemorySegment.Scope, AtomicInteger> HOLDS = new ConcurrentHashMap<>();

  private HostViews() {}

  /**
   * Closes {@code views}; true once they are closed (also when they already were). An operation
   * that holds the arena while it runs (a FileChannel read into a chunk buffer, a native call
   * given a view) makes close fail, so this tries again until {@code patience} has passed and
   * then returns false: the caller must not free the memory then. An interrupt neither cuts the
   * wait short nor is lost. From the start no new {@link #hold} is taken, but those taken are not
   * waited for: for memory whose free unmaps it (CUDA's pinned host memory), where a read the kernel
   * still performs fails instead of writing into memory the process reuses.
   */
  public static boolean end(Arena views, Duration patience) {
    return end(views, patience, false);
  }

  /**
   * As {@link #end}, and a {@link #hold} not yet released (an io_uring read into a view) keeps the
   * views open too, while no new hold is taken: for memory whose free gives it back to the process's
   * allocator (the reference backend's arenas), which a late read would corrupt. Call it without
   * holding a lock the holders may need before they can release.
   */
  public static boolean endAfterHeldReads(Arena views, Duration patience) {
    return end(views, patience, true);
  }

  private static boolean end(Arena views, Duration patience, boolean afterHolds) {
    long deadline = System.nanoTime() + patience.toNanos();
    boolean interrupted = Thread.interrupted();
    MemorySegment.Scope scope = views.scope();
    AtomicInteger holds = HOLDS.computeIfAbsent(scope, s -> new AtomicInteger());
    holds.getAndAccumulate(ENDING, (count, ending) -> count | ending);
    try {
      while (scope.isAlive()) {
        // Only ENDING left: no hold is out.
        if (!afterHolds || holds.get() == ENDING) {
          try {
            views.close();
            return true;
          } catch (IllegalStateException held) {
            // An operation holds the arena: try again below.
          }
        }
        if (System.nanoTime() - deadline > 0) {
          return !scope.isAlive();
        }
        RETRY.idle();
        interrupted |= Thread.interrupted();
      }
      return true;
    } finally {
      if (!scope.isAlive()) {
        HOLDS.remove(scope);
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Keeps {@code scope}'s memory from being freed by {@link #end} until {@link #release}: for a read
   * into a view that holds no arena while it runs. False when the scope is ended or being ended:
   * the read must not start.
   */
  public static boolean hold(MemorySegment.Scope scope) {
    if (!scope.isAlive()) {
      return false;
    }
    AtomicInteger holds = HOLDS.computeIfAbsent(scope, s -> new AtomicInteger());
    for (int count = holds.get(); (count & ENDING) == 0; count = holds.get()) {
      if (holds.compareAndSet(count, count + 1)) {
        // Alive after the count: end() had not yet closed it, and cannot until the release.
        if (scope.isAlive()) {
          return true;
        }
        holds.decrementAndGet();
        HOLDS.remove(scope);
        return false;
      }
    }
    return false;
  }

  /** Gives back a {@link #hold} of {@code scope}. */
  public static void release(MemorySegment.Scope scope) {
    AtomicInteger holds = HOLDS.get(scope);
    if (holds != null) {
      holds.decrementAndGet();
    }
  }
}

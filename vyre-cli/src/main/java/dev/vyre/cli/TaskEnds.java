package dev.vyre.cli;

import dev.vyre.runtime.TaskResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The tasks of a {@code vyre run} in the order they end (their futures complete: DONE, FAULT,
 * WAIT_IO, or exceptionally when the kernel stops first), handed out once each to whoever takes
 * them: the thread waiting for the run, or the recorder flushing on the way out. A future's
 * callback, which runs on the thread that retires the task, only notes the index, so nothing
 * slow happens on the retire path. Thread-safe.
 */
final class TaskEnds {

  private final CompletableFuture<TaskResult>[] futures;
  private final TaskResult[] results;
  /** Task indices in the order their futures completed; {@code [taken, ended)} are not taken yet. */
  private final int[] order;
  private int ended;
  private int taken;
  private boolean closed;

  @SuppressWarnings("unchecked")
  TaskEnds(int tasks) {
    this.futures = new CompletableFuture[tasks];
    this.results = new TaskResult[tasks];
    this.order = new int[tasks];
  }

  /** Watches task {@code task}'s future, once it is published. */
  void watch(int task, CompletableFuture<TaskResult> future) {
    futures[task] = future;
    future.whenComplete((result, error) -> ended(task));
  }

  private synchronized void ended(int task) {
    order[ended++] = task;
    notifyAll();
  }

  /** Whether some task ended and was not taken yet (false once closed). */
  synchronized boolean available() {
    return !closed && taken < ended;
  }

  /**
   * The next task that ended and was not taken yet, its result kept for {@link #result}; -1 when
   * there is none or the ends are closed.
   */
  synchronized int take() {
    if (closed || taken == ended) {
      return -1;
    }
    int task = order[taken++];
    CompletableFuture<TaskResult> future = futures[task];
    results[task] = future.state() == Future.State.SUCCESS ? future.resultNow() : null;
    return task;
  }

  /** Why task {@code task}'s future failed once taken (the kernel stopped first), else null. */
  synchronized Throwable failure(int task) {
    CompletableFuture<TaskResult> future = futures[task];
    return results[task] == null && future != null && future.state() == Future.State.FAILED ? future.exceptionNow() : null;
  }

  /** Takes every task that ended and was not taken yet (their results stay here). */
  synchronized void takeAll() {
    while (available()) {
      take();
    }
  }

  /** How task {@code task} ended once taken: its result, or null when its future failed (or it was not taken). */
  synchronized TaskResult result(int task) {
    return results[task];
  }

  /** Waits up to {@code nanos} for a task to end that was not taken yet; false when none did (or the ends are closed). */
  synchronized boolean await(long nanos) throws InterruptedException {
    long deadline = System.nanoTime() + nanos;
    while (!closed && taken == ended) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return !closed;
  }

  /** Whether every task was taken. */
  synchronized boolean allTaken() {
    return taken == futures.length;
  }

  /**
   * Hands out nothing more: the run stopped waiting, and a task that ends from now on counts as
   * one that never finished. Returns the results of the tasks taken, null for the others.
   */
  synchronized TaskResult[] close() {
    closed = true;
    notifyAll();
    return results.clone();
  }

  synchronized boolean isClosed() {
    return closed;
  }
}

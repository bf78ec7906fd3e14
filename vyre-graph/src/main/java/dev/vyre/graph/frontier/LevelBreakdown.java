package dev.vyre.graph.frontier;

/**
 * Where the time of a run's grid-wide levels went on the workers of a CPU engine (the reference
 * backend's): the evidence for what limits a level once its edges are few. Sums over the levels and,
 * where each worker has its own, over the workers; {@link #plus} adds runs.
 *
 * @param levels the grid-wide levels (fused ones, run by one worker alone, are not counted)
 * @param workers the workers of each level
 * @param workNanos the workers' own work (the push or pull of their share), summed over workers
 * @param waitNanos the workers' time at the level's barrier, from arriving to leaving, summed over workers
 * @param skewNanos per level, the time from the first worker's arrival to the last one's
 * @param actionNanos per level, the barrier's action (log, refine, decide), run by the last to arrive
 * @param exitNanos the time from the action's end to a worker leaving the barrier, summed over workers
 */
public record LevelBreakdown(long levels, int workers, long workNanos, long waitNanos, long skewNanos, long actionNanos,
    long exitNanos) {

  /** This run's sums and {@code other}'s (the same engine's, so the same workers). */
  public LevelBreakdown plus(LevelBreakdown other) {
    return new LevelBreakdown(levels + other.levels, Math.max(workers, other.workers), workNanos + other.workNanos,
        waitNanos + other.waitNanos, skewNanos + other.skewNanos, actionNanos + other.actionNanos,
        exitNanos + other.exitNanos);
  }

  /** A worker's mean work a level, in microseconds. */
  public double workMicros() {
    return perWorkerLevel(workNanos);
  }

  /** A worker's mean wait at a level's barrier, in microseconds. */
  public double waitMicros() {
    return perWorkerLevel(waitNanos);
  }

  /** The mean time a level from the first arrival to the last, in microseconds. */
  public double skewMicros() {
    return perLevel(skewNanos);
  }

  /** The barrier action's mean time a level, in microseconds. */
  public double actionMicros() {
    return perLevel(actionNanos);
  }

  /** A worker's mean time a level from the action's end to its leaving the barrier, in microseconds. */
  public double exitMicros() {
    return perWorkerLevel(exitNanos);
  }

  /**
   * One line: {@code 16 workers, a level: push or pull 9.1 us a worker, waiting 30.2 us (arrivals 25.0 us
   * apart, ...)}.
   */
  public String describe() {
    return String.format("%d workers, a level: push or pull %.1f us a worker, waiting %.1f us (arrivals %.1f us apart,"
        + " the barrier's action %.1f us, release to exit %.1f us)", workers, workMicros(), waitMicros(), skewMicros(),
        actionMicros(), exitMicros());
  }

  private double perLevel(long nanos) {
    return levels == 0 ? 0.0 : nanos / 1e3 / levels;
  }

  private double perWorkerLevel(long nanos) {
    return levels == 0 || workers == 0 ? 0.0 : nanos / 1e3 / levels / workers;
  }
}

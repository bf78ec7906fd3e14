package dev.vyre.runtime;

/** Task priority levels (docs/PROTOCOL.md, "Priority levels"); each owns a partition of the ring. */
public enum Priority {
  CRITICAL, HIGH, NORMAL, LOW, IDLE;

  private static final Priority[] LEVELS = values();

  /** The wire level 0..4. */
  public int level() {
    return ordinal();
  }

  public static Priority ofLevel(int level) {
    return LEVELS[level];
  }
}

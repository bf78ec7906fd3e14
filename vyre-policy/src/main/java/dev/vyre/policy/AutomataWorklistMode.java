package dev.vyre.policy;

/** How an automata or graph state/index worklist is drained (docs/PORTS.md, "Automata worklist"). */
public enum AutomataWorklistMode {
  /** Nothing is queued. */
  Empty,
  /** The worklist is deeper than the spill threshold and must spill out of the resident queue. */
  SpillRequired,
  /** Deep enough, or occupancy low enough, that workers should not block on the worklist. */
  NonBlocking,
  /** A shallow worklist on a well-occupied device: workers may block on it. */
  Blocking
}

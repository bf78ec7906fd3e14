package dev.vyre.cuda.graph;

import dev.vyre.graph.frontier.FrontierAlgorithm;
import dev.vyre.graph.frontier.FrontierResidency;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The frontier engine's memory plans, keyed by device, algorithm, graph shape and budget, so that a
 * second run of a graph on an engine (a benchmark's sixteen sources) reuses its plan; both the plan
 * and its reuse are logged at INFO ({@code --verbose}). Bounded, least recently used first out.
 */
final class ResidencyPlans {

  private static final System.Logger LOG = System.getLogger(ResidencyPlans.class.getName());
  private static final int CAPACITY = 64;

  /** What a plan depends on. */
  record Key(String device, FrontierAlgorithm algorithm, int vertices, long edges, boolean transposed, long budget) {}

  private final Map<Key, FrontierResidency> plans = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, FrontierResidency> eldest) {
      return size() > CAPACITY;
    }
  };

  private long reused;

  /** The plan for {@code key}, made with {@link FrontierResidency#plan} on its first use. */
  FrontierResidency plan(Key key) {
    FrontierResidency held = plans.get(key);
    if (held != null) {
      reused++;
      LOG.log(System.Logger.Level.INFO, () -> "frontier: reusing the " + key.algorithm() + " memory plan for "
          + key.vertices() + " vertices, " + key.edges() + " edges on " + key.device() + ": " + held.describe());
      return held;
    }
    FrontierResidency planned = FrontierResidency.plan(key.algorithm(), key.vertices(), key.edges(), key.transposed(),
        key.budget());
    plans.put(key, planned);
    LOG.log(System.Logger.Level.INFO, () -> "frontier: " + key.algorithm() + " on " + key.device() + ", "
        + planned.describe());
    return planned;
  }

  /** How many lookups found their plan. */
  long reused() {
    return reused;
  }
}

package dev.vyre.cuda.plan;

import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.driver.planner.MegakernelTopologyDecision;

/**
 * vyre's {@code CudaMegakernelCachedPlan}: a cached topology and the decision, frozen at insert
 * time, that chose it.
 *
 * @param topology the topology served for the key
 * @param decision the decision made when the entry was inserted
 */
public record CudaMegakernelCachedPlan(MegakernelExecutionTopology topology, MegakernelTopologyDecision decision) {

  static CudaMegakernelCachedPlan of(MegakernelTopologyDecision decision) {
    return new CudaMegakernelCachedPlan(decision.topology(), decision);
  }
}

/**
 * Exact ports of vyre's backend-neutral megakernel planners. Start with
 * {@link dev.vyre.driver.planner.MegakernelBarrierPlanner}, which layers a DAG of waves into groups
 * separated by global barriers; {@link dev.vyre.driver.planner.MegakernelFrontierMemoryPlanner}
 * splits those groups to fit a byte budget; {@link dev.vyre.driver.planner.MegakernelTopologySelector}
 * picks an execution topology from telemetry (with hysteresis in its stable variant); and
 * {@link dev.vyre.driver.planner.MegakernelMemoryPlanner} prices a topology in device memory and
 * builds the execution plan. Results, errors and their texts are vyre's, checked by
 * {@code vyre conform} (docs/PORTS.md, "Barrier planner" and the sections after it).
 */
package dev.vyre.driver.planner;

/**
 * Wave DAGs: waves of tasks with dependencies, declared on the host ({@link dev.vyre.runtime.wave.WaveDag}),
 * planned into barrier layers by the barrier and frontier memory planners
 * ({@link dev.vyre.runtime.wave.WavePlan}), published once and released layer by layer on the
 * device by per-layer counters ({@link dev.vyre.runtime.wave.WaveRun},
 * {@link dev.vyre.runtime.wire.WaveGateLayout}). docs/WAVES.md describes the semantics and costs.
 */
package dev.vyre.runtime.wave;

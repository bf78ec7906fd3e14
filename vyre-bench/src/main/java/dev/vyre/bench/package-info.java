/**
 * The measurements behind {@code vyre bench}, callable from code: {@link dev.vyre.bench.DispatchBench}
 * (one-task round trip and tiny-task throughput, with the CUDA launch baselines of the same run),
 * {@link dev.vyre.bench.IoBench} (file ranges loaded by tasks through the IO queue, against the host
 * reading them itself), {@link dev.vyre.bench.ScanBench} (scan throughput against {@code grep -F}) and
 * {@link dev.vyre.bench.GraphBench} (BFS and components on the frontier engine against per-level
 * launches, the reference backend and a serial BFS).
 * Each takes a settings record and returns its measures; the command prints them.
 */
package dev.vyre.bench;

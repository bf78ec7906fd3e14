package dev.vyre.runtime.wave;

import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.wire.WaveGateLayout;
import java.time.Duration;
import java.util.Arrays;

/**
 * A published {@link WavePlan}: every task is in the ring (or has run), and the kernel releases the
 * layers one after another. {@link #await} waits for the last task; then {@link #failedLayers} says
 * which layers had a task that did not finish DONE, or did not run because an earlier layer had one
 * (docs/WAVES.md, "On the device").
 */
public final class WaveRun {

  private final Megakernel kernel;
  private final WaveGateTables tables;
  private final int handle;
  /** Each plan layer's index in the gate table, or -1 for a layer without tasks (which has no gate). */
  private final int[] gateOf;
  private final int gates;
  private final int tasks;
  private final long lastTicket;
  /** Each layer's counter once every task finished; null until then. */
  private int[] counters;

  WaveRun(Megakernel kernel, WaveGateTables tables, int handle, int[] gateOf, int gates, int tasks, long lastTicket) {
    this.kernel = kernel;
    this.tables = tables;
    this.handle = handle;
    this.gateOf = gateOf;
    this.gates = gates;
    this.tasks = tasks;
    this.lastTicket = lastTicket;
  }

  /**
   * Waits until every task of the run has finished (DONE, FAULT or WAIT_IO); false on timeout or if
   * the kernel exited first; throws the {@link KernelException} that failed the kernel. Once true,
   * the run's gate table goes back to the kernel for later runs.
   */
  public synchronized boolean await(Duration timeout) {
    if (counters != null) {
      return true;
    }
    if (lastTicket >= 0 && !kernel.await(lastTicket, timeout)) {
      return false;
    }
    counters = tables.read(kernel, handle, gates);
    tables.release(handle);
    return true;
  }

  /** True once {@link #await} has seen every task finish. */
  public synchronized boolean finished() {
    return counters != null;
  }

  /**
   * The layers whose counter ended {@link WaveGateLayout#FAILED}: a task of the layer did not finish
   * DONE, or its tasks faulted because an earlier layer's did ({@code WAVE_PREDECESSOR_FAILED}); a
   * layer without tasks counts as failed when the last layer with tasks before it failed. Empty when
   * every task finished DONE.
   *
   * @throws PipelineException {@code Busy} before {@link #await} has returned true
   */
  public synchronized int[] failedLayers() {
    if (counters == null) {
      throw PipelineException.busy("wave run", "the run's tasks have not all finished", "call await until it returns true first");
    }
    int[] failed = new int[gateOf.length];
    int count = 0;
    boolean failing = false;
    for (int layer = 0; layer < gateOf.length; layer++) {
      if (gateOf[layer] >= 0) {
        failing = counters[gateOf[layer]] != 0;
      }
      if (failing) {
        failed[count++] = layer;
      }
    }
    return Arrays.copyOf(failed, count);
  }

  public int layers() {
    return gateOf.length;
  }

  public int tasks() {
    return tasks;
  }

  /** The ticket of the run's last task (-1 for a run without tasks); tickets of one priority finish in order. */
  public long lastTicket() {
    return lastTicket;
  }

  /** The gate table's resource handle (WaveGateLayout), for inspection while the run is in flight. */
  public int gateTable() {
    return handle;
  }
}

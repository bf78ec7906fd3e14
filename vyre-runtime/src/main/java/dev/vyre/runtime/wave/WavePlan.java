package dev.vyre.runtime.wave;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.planner.MegakernelBarrierPlan;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlan;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.WaveGateLayout;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link WaveDag} planned into layers: layer {@code k + 1} starts only once every task of layer
 * {@code k} has finished (a barrier, as the barrier planner's groups are), and the waves of one layer
 * run together. Holds its own copy of every task, layer after layer, and publishes them all at once
 * ({@link #publish}); the device releases each layer when the one before it completes.
 */
public final class WavePlan {

  /** Tasks per published batch: big enough to amortize the doorbell, small enough to start the kernel early. */
  private static final int PUBLISH_CHUNK = 4096;

  private final MegakernelFrontierMemoryPlan memory;
  private final List<String> waveNames;
  private final int[] waveLayer;
  /** Layer {@code k}'s tasks are {@code [layerStarts[k], layerStarts[k + 1])}, in wave order within the layer. */
  private final int[] layerStarts;
  private final int[] opcodes;
  private final int[] argCounts;
  /** {@link SlotLayout#ARGS_PER_SLOT} words per task. */
  private final int[] args;

  private WavePlan(MegakernelFrontierMemoryPlan memory, List<String> waveNames, int[] waveLayer, int[] layerStarts, int[] opcodes,
      int[] argCounts, int[] args) {
    this.memory = memory;
    this.waveNames = waveNames;
    this.waveLayer = waveLayer;
    this.layerStarts = layerStarts;
    this.opcodes = opcodes;
    this.argCounts = argCounts;
    this.args = args;
  }

  /** Lays the tasks out layer by layer in the memory plan's order. */
  static WavePlan of(List<WaveDag.Wave> waves, MegakernelFrontierMemoryPlan memory) {
    MegakernelBarrierPlan layers = memory.barriers();
    if (layers.groupCount() > WaveGateLayout.MAX_LAYERS) {
      throw PipelineException.invalidArgument("wave plan", "the plan has " + layers.groupCount() + " layers and a gate table holds "
          + WaveGateLayout.MAX_LAYERS, "split the DAG into several, published one after another");
    }
    long total = 0;
    for (WaveDag.Wave wave : waves) {
      total += wave.tasks();
    }
    if (total > Integer.MAX_VALUE / SlotLayout.ARGS_PER_SLOT) {
      throw PipelineException.invalidArgument("wave plan", "the DAG has " + total + " tasks, more than one plan holds ("
          + Integer.MAX_VALUE / SlotLayout.ARGS_PER_SLOT + ")", "split the DAG into several, published one after another");
    }
    int tasks = (int) total;
    int[] waveLayer = new int[waves.size()];
    int[] layerStarts = new int[layers.groupCount() + 1];
    int[] opcodes = new int[tasks];
    int[] argCounts = new int[tasks];
    int[] args = new int[tasks * SlotLayout.ARGS_PER_SLOT];
    int next = 0;
    for (int layer = 0; layer < layers.groupCount(); layer++) {
      layerStarts[layer] = next;
      for (int i = 0; i < layers.groupWidth(layer); i++) {
        WaveDag.Wave wave = waves.get(layers.wave(layer, i));
        waveLayer[wave.index()] = layer;
        int n = wave.tasks();
        Arrays.fill(opcodes, next, next + n, wave.opcode());
        for (int t = 0; t < n; t++) {
          argCounts[next + t] = wave.argCount(t);
        }
        System.arraycopy(wave.argsUnsafe(), 0, args, next * SlotLayout.ARGS_PER_SLOT, n * SlotLayout.ARGS_PER_SLOT);
        next += n;
      }
    }
    layerStarts[layers.groupCount()] = next;
    return new WavePlan(memory, waves.stream().map(WaveDag.Wave::name).toList(), waveLayer, layerStarts, opcodes, argCounts, args);
  }

  /** The frontier memory planner's result: the layers and the peak bytes of any one of them. */
  public MegakernelFrontierMemoryPlan memory() {
    return memory;
  }

  public int layers() {
    return layerStarts.length - 1;
  }

  /** The waves of layer {@code layer}, by index, in the planner's order. */
  public int[] layerWaves(int layer) {
    return memory.barriers().groupWaves(layer);
  }

  /** The layer wave {@code wave} runs in. */
  public int layerOf(int wave) {
    return waveLayer[wave];
  }

  /** Tasks of layer {@code layer}. */
  public int layerTasks(int layer) {
    return layerStarts[layer + 1] - layerStarts[layer];
  }

  /** Tasks over all layers. */
  public int tasks() {
    return layerStarts[layerStarts.length - 1];
  }

  public String waveName(int wave) {
    return waveNames.get(wave);
  }

  /** {@link #publish(Megakernel, int, Priority)} as tenant 0 at NORMAL priority. */
  public WaveRun publish(Megakernel kernel) {
    return publish(kernel, 0, Priority.NORMAL);
  }

  /**
   * Publishes every task, layer after layer, once: the kernel releases each layer when the one
   * before it has finished, with no host round trip between them. Sets up a gate table (a DEVICE
   * resource, reused once an earlier run of this kernel has finished with it) holding each layer's
   * task count. Publishing waits for ring space as {@link Megakernel#publish(TaskBatch)} does, so a
   * DAG larger than the partition returns once its last tasks are in the ring.
   *
   * @throws PipelineException for a tenant or priority the kernel refuses, or a gate table whose
   *     handle does not fit the gate word
   */
  public WaveRun publish(Megakernel kernel, int tenant, Priority priority) {
    WaveGateTables tables = kernel.service(WaveGateTables.class, session -> new WaveGateTables());
    int layers = layers();
    // Gates count only layers with tasks: an empty layer's counter would read 0 from the start and
    // open the layer after it before the one before it had finished.
    int[] gateOf = new int[layers];
    int[] counts = new int[layers];
    int gates = 0;
    for (int layer = 0; layer < layers; layer++) {
      gateOf[layer] = layerTasks(layer) == 0 ? -1 : gates;
      if (layerTasks(layer) > 0) {
        counts[gates++] = layerTasks(layer);
      }
    }
    ControlLayout.checkTenant(tenant);
    int partition = kernel.partitionSlots(priority);
    TaskBatch batch = new TaskBatch(Math.max(1, Math.min(PUBLISH_CHUNK, partition))).priority(priority);
    // A publish that fails part way leaves the table taken for good: tasks already in the ring may
    // still read it.
    int handle = tables.acquire(kernel, Arrays.copyOf(counts, gates));
    long lastTicket = -1;
    for (int layer = 0; layer < layers; layer++) {
      if (gateOf[layer] < 0) {
        continue;
      }
      int gate = WaveGateLayout.gate(handle, gateOf[layer]);
      for (int task = layerStarts[layer]; task < layerStarts[layer + 1]; task++) {
        if (batch.size() == batch.capacity()) {
          lastTicket = Megakernel.batchTicket(kernel.publish(batch), batch.size() - 1);
          batch.clear();
        }
        batch.addGated(gate, tenant, opcodes[task], args, task * SlotLayout.ARGS_PER_SLOT, argCounts[task]);
      }
    }
    if (batch.size() > 0) {
      lastTicket = Megakernel.batchTicket(kernel.publish(batch), batch.size() - 1);
    }
    return new WaveRun(kernel, tables, handle, gateOf, gates, tasks(), lastTicket);
  }

  @Override
  public String toString() {
    return "WavePlan[" + layers() + " layers, " + tasks() + " tasks, " + memory.barriers() + "]";
  }
}

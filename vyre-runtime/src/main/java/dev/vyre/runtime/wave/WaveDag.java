package dev.vyre.runtime.wave;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.planner.MegakernelBarrierScratch;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlan;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlanner;
import dev.vyre.driver.planner.MegakernelFrontierWave;
import dev.vyre.driver.planner.MegakernelWaveDependencies;
import dev.vyre.runtime.wire.RingPublisher;
import dev.vyre.runtime.wire.SlotLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A DAG of waves, declared on the host and planned into layers that the kernel releases one after
 * another on the device (docs/WAVES.md). A wave is a batch of tasks of one opcode, each with its own
 * arguments, and the bytes the wave touches at once (frontier, scratch, output: what the frontier
 * memory planner prices). A dependency {@code before → after} says that {@code after}'s tasks may
 * start only once every task of {@code before} has finished.
 *
 * <p>{@link #plan(long)} layers the waves with the barrier planner ({@code plan_megakernel_barriers})
 * and splits each layer so that its waves' fused bytes fit the budget (the frontier memory planner);
 * {@link WavePlan#publish} then publishes every task at once. Not thread-safe: one thread declares.
 *
 * <pre>{@code
 * WaveDag dag = new WaveDag();
 * WaveDag.Wave load = dag.wave("load", LOAD, new MegakernelFrontierWave(4096, 0, 4096));
 * WaveDag.Wave sum = dag.wave("sum", SUM, new MegakernelFrontierWave(4096, 64, 4));
 * for (int chunk = 0; chunk < 16; chunk++) load.task(chunk, buffer);
 * sum.task(buffer, resultWord).after(load);
 * WaveRun run = dag.plan().publish(kernel);
 * run.await(Duration.ofSeconds(10));
 * }</pre>
 */
public final class WaveDag {

  /** The budget of {@link #plan()}: the largest unsigned byte count, so nothing is split. */
  public static final long UNLIMITED_BYTES = -1L;

  private final List<Wave> waves = new ArrayList<>();
  private final MegakernelWaveDependencies dependencies = new MegakernelWaveDependencies();

  /** One wave: tasks of one opcode. Made by {@link WaveDag#wave}. */
  public final class Wave {

    private final int index;
    private final String name;
    private final int opcode;
    private final MegakernelFrontierWave bytes;
    /** Task {@code t}'s arguments are {@code args[12t .. 12t + argCounts[t])}. */
    private int[] args = new int[SlotLayout.ARGS_PER_SLOT * 4];
    private int[] argCounts = new int[4];
    private int tasks;

    private Wave(int index, String name, int opcode, MegakernelFrontierWave bytes) {
      this.index = index;
      this.name = name;
      this.opcode = opcode;
      this.bytes = bytes;
    }

    /**
     * Adds a task with these arguments (at most twelve); returns this wave.
     *
     * @throws PipelineException for more than twelve arguments
     */
    public Wave task(int... taskArgs) {
      SlotLayout.checkArgCount(taskArgs.length);
      if (tasks == argCounts.length) {
        argCounts = Arrays.copyOf(argCounts, 2 * tasks);
        args = Arrays.copyOf(args, 2 * tasks * SlotLayout.ARGS_PER_SLOT);
      }
      System.arraycopy(taskArgs, 0, args, tasks * SlotLayout.ARGS_PER_SLOT, taskArgs.length);
      argCounts[tasks++] = taskArgs.length;
      return this;
    }

    /**
     * This wave runs after every task of each of {@code before}; returns this wave.
     *
     * @throws PipelineException for a wave of another DAG
     */
    public Wave after(Wave... before) {
      for (Wave wave : before) {
        if (wave.owner() != WaveDag.this) {
          throw PipelineException.invalidArgument("wave dependency", "wave '" + wave.name + "' belongs to another WaveDag",
              "declare both waves on the same WaveDag");
        }
        dependencies.add(wave.index, index);
      }
      return this;
    }

    private WaveDag owner() {
      return WaveDag.this;
    }

    public int index() {
      return index;
    }

    public String name() {
      return name;
    }

    public int opcode() {
      return opcode;
    }

    public MegakernelFrontierWave bytes() {
      return bytes;
    }

    /** Tasks added so far. */
    public int tasks() {
      return tasks;
    }

    /** Task {@code task}'s arguments as a new array. */
    public int[] args(int task) {
      Objects.checkIndex(task, tasks);
      return Arrays.copyOfRange(args, task * SlotLayout.ARGS_PER_SLOT, task * SlotLayout.ARGS_PER_SLOT + argCounts[task]);
    }

    int[] argsUnsafe() {
      return args;
    }

    int argCount(int task) {
      return argCounts[task];
    }

    @Override
    public String toString() {
      return "wave " + index + " '" + name + "' (opcode 0x" + Integer.toHexString(opcode) + ", " + tasks + " tasks)";
    }
  }

  /** A wave that declares no bytes (the planner never splits a layer for it). */
  public Wave wave(String name, int opcode) {
    return wave(name, opcode, new MegakernelFrontierWave(0, 0, 0));
  }

  /**
   * Declares a wave of tasks of {@code opcode} that touch {@code bytes} at once; its tasks are added
   * with {@link Wave#task}.
   *
   * @throws PipelineException for an opcode no publisher takes
   */
  public Wave wave(String name, int opcode, MegakernelFrontierWave bytes) {
    RingPublisher.checkPayload(0, opcode, 0);
    Wave wave = new Wave(waves.size(), Objects.requireNonNull(name, "name"), opcode, Objects.requireNonNull(bytes, "bytes"));
    waves.add(wave);
    return wave;
  }

  /**
   * Adds the dependency {@code before → after} by wave index, as the barrier planner takes it; an
   * index that names no wave is refused by {@link #plan} ({@code InvalidWave}).
   */
  public WaveDag dependency(int before, int after) {
    dependencies.add(before, after);
    return this;
  }

  /** The waves declared so far, in index order. */
  public List<Wave> waves() {
    return List.copyOf(waves);
  }

  /** Plans with no byte budget: layers are the barrier planner's, unsplit. */
  public WavePlan plan() {
    return plan(UNLIMITED_BYTES);
  }

  /**
   * Plans the DAG into layers: the barrier planner's groups, each split by the frontier memory
   * planner so that the fused bytes of the waves released together fit {@code budgetBytes}
   * (unsigned). The plan copies the tasks: later changes to this DAG do not change it.
   *
   * @throws dev.vyre.driver.planner.MegakernelFrontierMemoryPlanException {@code Barrier} wrapping
   *     the barrier planner's error (a dependency on an unknown wave, a self dependency, a cycle), or
   *     {@code GroupOverBudget} when one wave alone exceeds the budget
   * @throws PipelineException when the plan has more layers than a gate table holds, or a layer more
   *     tasks than its counter holds
   */
  public WavePlan plan(long budgetBytes) {
    List<MegakernelFrontierWave> bytes = new ArrayList<>(waves.size());
    for (Wave wave : waves) {
      bytes.add(wave.bytes);
    }
    MegakernelFrontierMemoryPlan memory = MegakernelFrontierMemoryPlanner.planMegakernelFrontierMemoryWithScratch(bytes,
        dependencies, 0, budgetBytes, 0, new MegakernelBarrierScratch());
    return WavePlan.of(List.copyOf(waves), memory);
  }
}

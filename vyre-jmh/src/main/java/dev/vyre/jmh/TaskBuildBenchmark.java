package dev.vyre.jmh;

import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.dfa.DfaStepArgs;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The host's work to write one DFA_STEP task into a batch before it is published, as a scan does for
 * every task of a chunk (ChunkSlot, ResidentScan): the arguments, then the batch's slot words.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = "--enable-native-access=ALL-UNNAMED")
public class TaskBuildBenchmark {

  private static final int TASKS = 1024;
  private static final long TASK_BYTES = 4096;

  private final TaskBatch batch = new TaskBatch(TASKS).priority(Priority.NORMAL);
  private final int[] args = new int[DfaStepArgs.USED_ARGS];

  /** One chunk's tasks, a task per 4 KiB of it. */
  @Benchmark
  @OperationsPerInvocation(TASKS)
  public int chunkOfTasks() {
    batch.clear();
    for (int k = 0; k < TASKS; k++) {
      long owned = k * TASK_BYTES;
      long read = Math.max(0, owned - 15);
      DfaStepArgs.write(args, 3, read, owned + TASK_BYTES - read, 5, 1, 9, 0, read, owned - read);
      batch.add(0, DfaStepArgs.OPCODE, args);
    }
    return batch.size();
  }
}

package dev.vyre.cuda;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.MegakernelBuilder;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotStatus;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs one slot program on a backend, one task at a time, and keeps what the parity suite compares. */
final class ParityRunner {

  /** The comparable outcome: the control block (minus liveness words), each task's end, the debug log. */
  record Outcome(int[] control, List<String> tasks, byte[] debugLog) {}

  private ParityRunner() {}

  static Outcome run(MegakernelBackend backend, List<Task> program, List<UserOpcode> userOpcodes, int tenants) throws Exception {
    MegakernelBuilder builder = Megakernel.builder().backend(backend).slots(256).tenants(tenants).observables(32).workers(backend.name().equals("reference") ? 1 : 0);
    userOpcodes.forEach(builder::userOpcode);
    try (Megakernel kernel = builder.bootstrap()) {
      List<String> tasks = new ArrayList<>();
      for (Task task : program) {
        TaskResult result;
        try {
          result = kernel.submit(task).get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          throw new AssertionError(backend.name() + ": task " + tasks.size() + " " + task + " did not finish: " + kernel.summary(), e);
        }
        tasks.add(result.status() + (result.status() == SlotStatus.FAULT ? "/" + result.fault() : "")
            + (result.observable() >= 0 ? " obs=" + result.observable() : ""));
      }
      byte[] debug = kernel.debugLogSnapshot();
      kernel.shutdown(Duration.ofSeconds(10));
      MemorySegment control = MemorySegment.ofArray(kernel.controlSnapshot());
      int[] words = new int[(int) (control.byteSize() / 4)];
      for (int i = 0; i < words.length; i++) {
        words[i] = control.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * i);
      }
      // Liveness words differ by design: the heartbeat ticks with time, the state records the exit,
      // and a GPU warp may take a ticket before it is published (and wait for it), so its claim
      // cursors can run ahead of the tickets that were ever published.
      words[ControlLayout.HEARTBEAT] = 0;
      words[ControlLayout.KERNEL_STATE] = 0;
      for (int p = 0; p < ControlLayout.PRIORITY_LEVELS; p++) {
        words[ControlLayout.claimSeqWord(p)] = 0;
        words[ControlLayout.claimSeqWord(p) + 1] = 0;
      }
      return new Outcome(words, tasks, debug);
    }
  }
}

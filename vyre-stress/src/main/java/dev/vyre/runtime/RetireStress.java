package dev.vyre.runtime;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Retiring ({@link RetireStep}: a task's final status read, its future completed, its ticket moved
 * past by {@code retired} so that its slot may be reused) against the kernel finishing the task,
 * a publisher reusing the slot, a thread watching the cursor, and a waiter ({@link TaskAwaiter}).
 * The task is a LOAD_U32 whose result the kernel stores in observable 0.
 */
public final class RetireStress {

  /** The control word the task loads (any word: the test's kernel stores {@link #RESULT} itself). */
  private static final int SOURCE = ControlLayout.HEARTBEAT;
  private static final int RESULT = 77;

  private RetireStress() {}

  /** Publishes the LOAD_U32 task into slot 0 of {@code host}, with {@code future} and a tenant count when asked; its ticket. */
  static long publishLoad(HostSide host, CompletableFuture<TaskResult> future, boolean countTenant) {
    return host.publish(Opcodes.LOAD_U32, SOURCE, 0, 0, future, countTenant);
  }

  @JCStressTest
  @Description("The kernel finishes the task (its result with release, then DONE with release) against a retire "
      + "pass, which then looks at the task's future. Result: tickets the pass retired, the result the future "
      + "holds (-1: not completed). Forbidden: 1, -1 (retired without completing its future); 1, 0 (the "
      + "future completed with a result read before the kernel stored it).")
  @Outcome(id = "0, -1", expect = Expect.ACCEPTABLE, desc = "Not finished yet.")
  @Outcome(id = "1, 77", expect = Expect.ACCEPTABLE, desc = "Retired with the kernel's result.")
  @Outcome(id = "1, -1", expect = Expect.FORBIDDEN, desc = "Retired without completing the future.")
  @Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "A result read before the kernel stored it.")
  @State
  public static class KernelThenRetire {
    private final HostSide host = new HostSide(1, false);
    private final CompletableFuture<TaskResult> future = new CompletableFuture<>();

    public KernelThenRetire() {
      publishLoad(host, future, false);
    }

    @Actor
    public void kernel() {
      host.finishLoad(0, 0, RESULT);
    }

    @Actor
    public void retire(II_Result r) {
      r.r1 = host.retire.retire(false);
      TaskResult result = future.getNow(null);
      r.r2 = result == null ? -1 : (int) result.observable();
    }
  }

  @JCStressTest
  @Description("A one-slot ring whose task finished: a retire pass against a publisher that takes the slot for "
      + "another task (STORE_U32, arguments 1000, 5, 6) as soon as the ticket is retired (the publisher may "
      + "run that pass itself while it waits for room). Result: whether the second publish went through, "
      + "the first task's result: its opcode and observable (-1, -1: its future never completed). "
      + "Forbidden: 1, 1, * and 1, 3, -1 (the first task's result read from the second task's words: the "
      + "slot freed before the pass had read it); *, -1, -1 (the first task never retired).")
  @Outcome(id = "[01], 3, 77", expect = Expect.ACCEPTABLE, desc = "The first task's own result.")
  @Outcome(id = "1, 1, -?\\d+", expect = Expect.FORBIDDEN, desc = "The second task's opcode in the first's result.")
  @Outcome(id = "1, 3, -1", expect = Expect.FORBIDDEN, desc = "The second task's arguments in the first's result.")
  @Outcome(id = "[01], -1, -1", expect = Expect.FORBIDDEN, desc = "The first task never retired.")
  @State
  public static class RetireThenReuse {
    private final HostSide host = new HostSide(1, false);
    private final CompletableFuture<TaskResult> future = new CompletableFuture<>();

    public RetireThenReuse() {
      publishLoad(host, future, false);
      host.finishLoad(0, 0, RESULT);
    }

    @Actor
    public void retire() {
      host.retire.retire(false);
    }

    @Actor
    public void publisher(III_Result r) {
      try {
        host.publish(Opcodes.STORE_U32, 1000, 5, 6, null, false);
        r.r1 = 1;
      } catch (PipelineException full) {
        // QueueFull: the other actor held the retire turn and had not moved the cursor yet.
        r.r1 = 0;
      }
    }

    @Arbiter
    public void result(III_Result r) {
      TaskResult result = future.getNow(null);
      r.r2 = result == null ? -1 : result.opcode();
      r.r3 = result == null ? -1 : (int) result.observable();
    }
  }

  @JCStressTest
  @Description("A retire pass over a finished task with a future, a tenant count and an express copy, against a "
      + "thread that reads, in this order, whether the future completed, the partition's retired cursor, "
      + "the tenant's retired count and whether the express copy is still held. Forbidden: 1, 0, *, * (the "
      + "future completed before its ticket retired: its callbacks would find it in flight); *, 1, 0, * "
      + "(retired before it counted against its tenant); *, 1, *, 1 (the slot freed with its express copy "
      + "still held, which a later lap could be taken for).")
  @Outcome(id = "0, 0, [01], [01]", expect = Expect.ACCEPTABLE, desc = "Not retired yet (its count and clear may show first).")
  @Outcome(id = "[01], 1, 1, 0", expect = Expect.ACCEPTABLE, desc = "Retired; the future completes after the cursor moves.")
  @Outcome(id = "1, 0, [01], [01]", expect = Expect.FORBIDDEN, desc = "The future completed before its ticket retired.")
  @Outcome(id = "[01], 1, 0, [01]", expect = Expect.FORBIDDEN, desc = "Retired before its tenant count.")
  @Outcome(id = "[01], 1, 1, 1", expect = Expect.FORBIDDEN, desc = "Retired with its express copy held.")
  @State
  public static class RetireThenObserver {
    private final HostSide host = new HostSide(1, true);
    private final CompletableFuture<TaskResult> future = new CompletableFuture<>();

    public RetireThenObserver() {
      publishLoad(host, future, true);
      host.finishLoad(0, 0, RESULT);
    }

    @Actor
    public void retire() {
      host.retire.retire(false);
    }

    @Actor
    public void observer(IIII_Result r) {
      r.r1 = future.isDone() ? 1 : 0;
      r.r2 = (int) host.part.retired.getVolatile();
      r.r3 = (int) host.retire.tenantRetired(HostSide.TENANT);
      r.r4 = ExpressLayout.holdsCopy(host.express, 0) ? 1 : 0;
    }
  }

  @JCStressTest
  @Description("The kernel stores the task's result plainly (as into a resource) and DONE with release, then a "
      + "retire pass runs on the same thread; against a waiter (TaskAwaiter.await, timeout 0: one look, "
      + "which may run a pass itself) that then reads the result plainly. Result: whether await said the "
      + "task finished, the result the waiter read. Forbidden: 1, 0 (await returned true before the task's "
      + "result was visible to the waiter).")
  @Outcome(id = "0, (0|77)", expect = Expect.ACCEPTABLE, desc = "Not finished at the waiter's look.")
  @Outcome(id = "1, 77", expect = Expect.ACCEPTABLE, desc = "Finished, with its result.")
  @Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "await returned before the task's result was visible.")
  @State
  public static class AwaitSeesResult {
    private final HostSide host = new HostSide(1, false);
    private final long ticket = publishLoad(host, null, false);

    @Actor
    public void kernelThenRetire() {
      Words.set(host.control, ControlLayout.observableWord(0), RESULT);
      host.finish(0, SlotLayout.STATUS_DONE);
      host.retire.retire(false);
    }

    @Actor
    public void waiter(II_Result r) {
      r.r1 = host.awaiter.await(ticket, Duration.ZERO) ? 1 : 0;
      r.r2 = Words.get(host.control, ControlLayout.observableWord(0));
    }
  }
}

package dev.vyre.runtime;

import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.ring.RingPartition;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.IIIII_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Publishing ({@link RingPublishing}: a ticket from {@link RingPartition#tryReserve}, the slot
 * written by {@code RingPublisher}, the commit that moves the doorbell) against the kernel that
 * reads it, and against another publisher, a batch, the express lane and shutdown.
 */
public final class PublishStress {

  private static final int OPCODE = Opcodes.STORE_U32;
  private static final int ARG0 = 11;
  private static final int ARG1 = 22;
  private static final int ARG2 = 33;

  private PublishStress() {}

  @JCStressTest
  @Description("One publish against the kernel, which reads the doorbell (acquire), then the slot's status "
      + "(acquire), then counts the task's five telling words it sees (plain). Forbidden: 1, 0, * (the "
      + "doorbell over a slot not yet PUBLISHED); *, 1, 0..4 (PUBLISHED before the task's words).")
  @Outcome(id = "0, 0, [0-5]", expect = Expect.ACCEPTABLE, desc = "Not published yet; words may show early.")
  @Outcome(id = "0, 1, 5", expect = Expect.ACCEPTABLE, desc = "PUBLISHED, the doorbell not moved yet.")
  @Outcome(id = "1, 1, 5", expect = Expect.ACCEPTABLE, desc = "Published and rung.")
  @Outcome(id = "1, 0, [0-5]", expect = Expect.FORBIDDEN, desc = "The doorbell over a slot not yet PUBLISHED.")
  @Outcome(id = "[01], 1, [0-4]", expect = Expect.FORBIDDEN, desc = "PUBLISHED before the task's words.")
  @State
  public static class DoorbellThenSlot {
    private final HostSide host = new HostSide(1, false);

    @Actor
    public void publisher() {
      host.publish(OPCODE, ARG0, ARG1, ARG2, null, false);
    }

    @Actor
    public void kernel(III_Result r) {
      r.r1 = host.doorbell();
      r.r2 = host.status(0);
      r.r3 = host.taskWordsSeen(0, OPCODE, ARG0, ARG1, ARG2);
    }
  }

  @JCStressTest
  @Description("Two publishers, one task each; after its publish each reads the doorbell (acquire) and, when "
      + "it covers both tickets, whether the other's slot holds the other's task. Result: the tickets "
      + "of the first and second, what each saw (0 the doorbell below 2, 1 the other's task whole, 2 the "
      + "doorbell over the other's slot without its task), the final doorbell. Forbidden: the same "
      + "ticket twice; a 2 (the doorbell over a slot its publisher has not written); 0, 0 (neither "
      + "publish returned with the doorbell over both: the last commit did not ring it); a final "
      + "doorbell below 2 (a commit lost).")
  @Outcome(id = "(0, 1|1, 0), 1, [01], 2", expect = Expect.ACCEPTABLE, desc = "Distinct tickets; the first saw both.")
  @Outcome(id = "(0, 1|1, 0), 0, 1, 2", expect = Expect.ACCEPTABLE, desc = "Distinct tickets; the second saw both.")
  @Outcome(id = "(0, 1|1, 0), 0, 0, 2", expect = Expect.FORBIDDEN, desc = "Neither publish returned with the doorbell over both.")
  @Outcome(id = "(0, 0|1, 1), .*", expect = Expect.FORBIDDEN, desc = "Both publishers got the same ticket.")
  @Outcome(id = "-?\\d+, -?\\d+, (2, \\d|\\d, 2), \\d", expect = Expect.FORBIDDEN, desc = "The doorbell over a slot not written yet.")
  @Outcome(id = "-?\\d+, -?\\d+, \\d, \\d, [01]", expect = Expect.FORBIDDEN, desc = "A commit lost: the final doorbell is below 2.")
  @State
  public static class TwoPublishers {
    private final HostSide host = new HostSide(2, false);

    /** Publishes a task whose three arguments are {@code who}; its ticket's sequence number. */
    private long publish(int who) {
      return RingPartition.sequenceOf(host.publish(OPCODE, who, who, who, null, false));
    }

    /** What the publisher of ticket {@code own} sees of the other ticket, {@code other}'s task. */
    private int seen(long own, int other) {
      if (host.doorbell() < 2) {
        return 0;
      }
      return host.holds(host.slotOf(1 - own), OPCODE, other, other, other) ? 1 : 2;
    }

    @Actor
    public void first(IIIII_Result r) {
      long own = publish(1);
      r.r1 = (int) own;
      r.r3 = seen(own, 2);
    }

    @Actor
    public void second(IIIII_Result r) {
      long own = publish(2);
      r.r2 = (int) own;
      r.r4 = seen(own, 1);
    }

    @Arbiter
    public void doorbell(IIIII_Result r) {
      r.r5 = host.doorbell();
    }
  }

  @JCStressTest
  @Description("A TaskBatch of three tasks published (one bulk copy, one commit) against the kernel, which reads "
      + "the doorbell (acquire), then counts the slots that are PUBLISHED and hold their task. Forbidden: "
      + "1, * and 2, * (the doorbell over part of a batch); 3, 0..2 (the doorbell over slots not yet written).")
  @Outcome(id = "0, [0-3]", expect = Expect.ACCEPTABLE, desc = "Not rung yet; slots may show early.")
  @Outcome(id = "3, 3", expect = Expect.ACCEPTABLE, desc = "The whole batch published and rung.")
  @Outcome(id = "[12], [0-3]", expect = Expect.FORBIDDEN, desc = "The doorbell over part of a batch.")
  @Outcome(id = "3, [0-2]", expect = Expect.FORBIDDEN, desc = "The doorbell over slots not yet written.")
  @State
  public static class Batch {
    private static final int TASKS = 3;
    private final HostSide host = new HostSide(TASKS, false);
    private final TaskBatch batch = new TaskBatch(TASKS).priority(HostSide.PRIORITY);

    public Batch() {
      for (int i = 0; i < TASKS; i++) {
        batch.add3(HostSide.TENANT, OPCODE, ARG0 + i, ARG1 + i, ARG2 + i);
      }
    }

    @Actor
    public void publisher() {
      host.publishing.publish(batch, false);
    }

    @Actor
    public void kernel(II_Result r) {
      r.r1 = host.doorbell();
      int whole = 0;
      for (int i = 0; i < TASKS; i++) {
        whole += host.holds(i, OPCODE, ARG0 + i, ARG1 + i, ARG2 + i) ? 1 : 0;
      }
      r.r2 = whole;
    }
  }

  @JCStressTest
  @Description("One publish with an express lane, against the kernel's express reader: it reads the express copy "
      + "(opaque 8-byte units); when every unit carries the ticket's stamp it acquires (a fence), checks the "
      + "ring slot, and runs the task from the copy, storing DONE to the ring slot. Result: the copy (0 not "
      + "wholly stamped, 1 the task, 2 stamped but not the task), the ring slot then (-1 not looked, 0 stale, "
      + "1 the task), the final ring status. Forbidden: 2, *, * (a torn or stale copy passing the stamp "
      + "check); 1, 0, * (the copy visible before the ring slot it copies); 1, *, 1 (the host's PUBLISHED "
      + "landing over the DONE the kernel stored after running the copy).")
  @Outcome(id = "0, -1, 1", expect = Expect.ACCEPTABLE, desc = "The copy not (wholly) seen: left to the doorbell path.")
  @Outcome(id = "1, 1, 3", expect = Expect.ACCEPTABLE, desc = "Run from the copy; its DONE stands.")
  @Outcome(id = "2, .*", expect = Expect.FORBIDDEN, desc = "A stamped copy that is not the task.")
  @Outcome(id = "1, 0, .*", expect = Expect.FORBIDDEN, desc = "The copy visible before the ring slot.")
  @Outcome(id = "1, 1, 1", expect = Expect.FORBIDDEN, desc = "The host's PUBLISHED over the kernel's DONE.")
  @State
  public static class ExpressCopy {
    private final HostSide host = new HostSide(1, true);
    private final int[] expected = new int[SlotLayout.SLOT_WORDS];

    public ExpressCopy() {
      expected[SlotLayout.STATUS_WORD] = SlotLayout.STATUS_PUBLISHED;
      expected[SlotLayout.OPCODE_WORD] = OPCODE;
      expected[SlotLayout.TENANT_WORD] = HostSide.TENANT;
      expected[SlotLayout.PRIORITY_WORD] = HostSide.PRIORITY.level();
      expected[SlotLayout.ARG0_WORD] = ARG0;
      expected[SlotLayout.ARG0_WORD + 1] = ARG1;
      expected[SlotLayout.ARG0_WORD + 2] = ARG2;
    }

    @Actor
    public void publisher() {
      host.publish(OPCODE, ARG0, ARG1, ARG2, null, false);
    }

    @Actor
    public void kernel(III_Result r) {
      int[] copy = new int[SlotLayout.SLOT_WORDS];
      if (!ExpressLayout.read(host.express, 0, ExpressLayout.stamp(0), copy)) {
        r.r1 = 0;
        r.r2 = -1;
        return;
      }
      r.r1 = Arrays.equals(copy, expected) ? 1 : 2;
      VarHandle.acquireFence();
      r.r2 = host.holds(0, OPCODE, ARG0, ARG1, ARG2) ? 1 : 0;
      host.finish(0, SlotLayout.STATUS_DONE);
    }

    @Arbiter
    public void ringStatus(III_Result r) {
      r.r3 = host.status(0);
    }
  }

  @JCStressTest
  @Description("One publish against shutdown closing the ring (KernelLifecycle.closeRing), which then reads the "
      + "doorbell (acquire). Result: whether the publish went through, the doorbell once closeRing returned, "
      + "the final doorbell. Forbidden: 1, 0, * (closeRing returned before a ticket taken before it was "
      + "rung, and rung after: what shutdown does next misses it); 0, *, 1 (a refused publish rang the "
      + "doorbell).")
  @Outcome(id = "0, 0, 0", expect = Expect.ACCEPTABLE, desc = "Refused: the ring was closed first.")
  @Outcome(id = "1, 1, 1", expect = Expect.ACCEPTABLE, desc = "Published and rung before closeRing returned.")
  @Outcome(id = "1, 0, [01]", expect = Expect.FORBIDDEN, desc = "closeRing returned before a taken ticket was rung.")
  @Outcome(id = "0, [01], 1", expect = Expect.FORBIDDEN, desc = "A refused publish rang the doorbell.")
  @State
  public static class CloseWhilePublishing {
    private final HostSide host = new HostSide(1, false);

    @Actor
    public void publisher(III_Result r) {
      try {
        host.publish(OPCODE, ARG0, ARG1, ARG2, null, false);
        r.r1 = 1;
      } catch (KernelException closed) {
        r.r1 = 0;
      }
    }

    @Actor
    public void shutdown(III_Result r) {
      host.lifecycle.closeRing(System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
      r.r2 = host.doorbell();
    }

    @Arbiter
    public void doorbell(III_Result r) {
      r.r3 = host.doorbell();
    }
  }
}

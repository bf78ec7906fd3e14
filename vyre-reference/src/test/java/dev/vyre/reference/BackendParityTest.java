package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.PackedSlotCodec;
import dev.vyre.runtime.wire.PackedSlotCodec.PackedOp;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.FutureTask;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * What every backend counts alike (docs/PROTOCOL.md, "Counters both backends keep"). Rounds of tasks are
 * published from several threads at every priority, one at a time and in batches, among them user opcodes
 * of the metered range 8..31 that YIELD or REQUEUE a few times before DONE, one that faults, and tasks of a
 * revoked tenant; each round is followed by a probe of the starvation counter (a lower-level task, then
 * batches of CRITICAL and HIGH ones). After each round and each probe every control word is compared with
 * what the published tasks imply, except the heartbeat (it ticks with time), the claim cursors (a GPU warp
 * may claim tickets before they are published, and a running CUDA kernel keeps its cursors in device state
 * that a snapshot does not copy: checked equal to the tickets published on the reference backend only)
 * and, after a round, the starvation counter (it depends on the order the levels were claimed in, which
 * the probe fixes); and every ring slot's sixteen words with those the task that used the slot last left: its
 * status, opcode, tenant, priority or fault word, and its arguments as its last run left them (docs/PROTOCOL.md,
 * "Arguments a task leaves": the continuing opcodes count their runs in an argument, the failing one marks one before
 * it faults). Backend-neutral ({@link TestBackends}): on CUDA (scripts/gpu-check.sh) the same
 * seed runs on the reference backend too and the compared words must be equal. A failure names its seed,
 * round and word; jqwik keeps failing seeds and tries them first on the next run.
 */
class BackendParityTest {

  private static final int YIELD_THEN_ADD = 8;
  private static final int REQUEUE_THEN_ADD = 9;
  private static final int FAIL = 10;
  /** What {@link #FAIL} writes into its arg0 before it faults. */
  private static final int FAILED_MARK = 0xFA11;
  private static final int TENANTS = 4;
  private static final int REVOKED_TENANT = 3;
  private static final int OBSERVABLES = 32;
  private static final int SLOTS = 320;
  private static final int PUBLISHERS = 3;
  private static final int ROUNDS = 3;
  private static final int PUBLISHES_PER_ROUND = 16;
  private static final int MAX_BATCH = 10;
  private static final Duration WAIT = Duration.ofSeconds(60);

  private static final List<UserOpcode> OPCODES = List.of(
      ContinuingOpcode.yielding(YIELD_THEN_ADD),
      ContinuingOpcode.requeueing(REQUEUE_THEN_ADD),
      UserOpcode.both(FAIL, "fail", slot -> {
        slot.setArg(0, FAILED_MARK);
        return SlotLayout.STATUS_FAULT;
      }, "args[0] = " + FAILED_MARK + "u; status = VYRE_STATUS_FAULT;"));

  /** A task to publish. */
  private record Spec(int tenant, int opcode, int[] args) {}

  /** A task as published: its priority level, its ticket and the slot the ticket went to. */
  private record Published(int level, long ticket, int slot, Spec task) {}

  @Property(tries = 3)
  void everyBackendCountsWhatThePublishedTasksImply(@ForAll long seed) throws Exception {
    MegakernelBackend selected = TestBackends.selected();
    List<int[]> compared = run(selected, seed);
    if (!selected.name().equals("reference")) {
      List<int[]> reference = run(new ReferenceBackend(), seed);
      for (int i = 0; i < compared.size(); i++) {
        int word = Arrays.mismatch(reference.get(i), compared.get(i));
        assertEquals(-1, word, "seed " + seed + ", snapshot " + i + ": " + selected.name() + " and the reference backend differ at word "
            + word);
      }
    }
  }

  /** Runs every round on {@code backend}, checking each against the model; returns the compared words of each snapshot. */
  private static List<int[]> run(MegakernelBackend backend, long seed) throws Exception {
    boolean reference = backend.name().equals("reference");
    var builder = Megakernel.builder().backend(backend).slots(SLOTS).tenants(TENANTS).observables(OBSERVABLES);
    if (reference) {
      builder.workers(2);
    }
    OPCODES.forEach(builder::userOpcode);
    List<int[]> compared = new ArrayList<>();
    try (Megakernel kernel = builder.bootstrap()) {
      kernel.setTenantAuthorized(REVOKED_TENANT, false);
      Model model = new Model(words(kernel.controlSnapshot()), kernel.slotCount());
      for (int round = 0; round < ROUNDS; round++) {
        String where = backend.name() + ", seed " + seed + ", round " + round;
        for (Published task : publishRound(kernel, seed, round)) {
          model.apply(task);
        }
        assertTrue(kernel.drain(WAIT), where + ": " + kernel.summary());
        compared.add(model.check(kernel, false, reference, where));
        probeStarvation(kernel, model, new SplittableRandom(seed ^ round), where);
        compared.add(model.check(kernel, true, reference, where + " (starvation probe)"));
      }
    }
    return compared;
  }

  /** Publishes one round from {@link #PUBLISHERS} threads at once; returns every task with its slot. */
  private static List<Published> publishRound(Megakernel kernel, long seed, int round) throws Exception {
    List<FutureTask<List<Published>>> publishers = new ArrayList<>();
    for (int p = 0; p < PUBLISHERS; p++) {
      SplittableRandom random = new SplittableRandom(seed + (round * PUBLISHERS + p) * 0x9E37_79B9_7F4A_7C15L);
      FutureTask<List<Published>> publisher = new FutureTask<>(() -> publish(kernel, random, round));
      Thread.ofPlatform().start(publisher);
      publishers.add(publisher);
    }
    List<Published> published = new ArrayList<>();
    for (FutureTask<List<Published>> publisher : publishers) {
      published.addAll(publisher.get());
    }
    return published;
  }

  /** One publisher's round: single tasks and batches, each at a random priority. */
  private static List<Published> publish(Megakernel kernel, SplittableRandom random, int round) {
    List<Published> published = new ArrayList<>();
    TaskBatch batch = new TaskBatch(MAX_BATCH);
    for (int i = 0; i < PUBLISHES_PER_ROUND; i++) {
      Priority priority = Priority.ofLevel(random.nextInt(ControlLayout.PRIORITY_LEVELS));
      int size = random.nextBoolean() ? 1 : 2 + random.nextInt(MAX_BATCH - 1);
      List<Spec> tasks = new ArrayList<>();
      for (int t = 0; t < size; t++) {
        tasks.add(randomTask(random, round));
      }
      long first;
      if (size == 1) {
        Spec task = tasks.getFirst();
        first = kernel.publish(task.tenant(), priority, task.opcode(), task.args());
      } else {
        batch.clear().priority(priority);
        tasks.forEach(task -> batch.add(task.tenant(), task.opcode(), task.args()));
        first = kernel.publish(batch);
      }
      for (int t = 0; t < size; t++) {
        long ticket = Megakernel.batchTicket(first, t);
        published.add(new Published(priority.level(), ticket, kernel.slotOf(ticket), tasks.get(t)));
      }
    }
    return published;
  }

  /** Built-ins whose effects do not depend on the order tasks run in, and the user opcodes. */
  private static Spec randomTask(SplittableRandom random, int round) {
    int tenant = random.nextInt(TENANTS);
    int addend = 1 + random.nextInt(1000);
    return switch (random.nextInt(7)) {
      case 0 -> new Spec(tenant, Opcodes.NOP, new int[0]);
      case 1 -> new Spec(tenant, Opcodes.ATOMIC_ADD, new int[] {addend, ControlLayout.observableWord(2 + random.nextInt(14))});
      // Every fence of a round tags observable 0 with the round, so the last one to run writes what the others would.
      case 2 -> new Spec(tenant, Opcodes.BATCH_FENCE, new int[] {0, round + 1});
      case 3 -> new Spec(tenant, YIELD_THEN_ADD, new int[] {random.nextInt(4), addend, 16 + random.nextInt(8)});
      case 4 -> new Spec(tenant, REQUEUE_THEN_ADD, new int[] {random.nextInt(4), addend, 24 + random.nextInt(8)});
      case 5 -> new Spec(tenant, FAIL, new int[0]);
      default -> new Spec(tenant, Opcodes.PACKED_SLOT, PackedSlotCodec.encode(
          new PackedOp(Opcodes.ATOMIC_ADD, new int[] {addend, ControlLayout.observableWord(1)}), new PackedOp(Opcodes.NOP, new int[0])));
    };
  }

  /**
   * The starvation counter after a known order of claims: a lower-level task resets it (awaited until the
   * reset is seen, since a GPU stores a single task's status before its counters), then batches of CRITICAL
   * and HIGH tasks add one per task, however the kernel splits them among its workers.
   */
  private static void probeStarvation(Megakernel kernel, Model model, SplittableRandom random, String where) throws InterruptedException {
    long reset = kernel.publish(0, Priority.IDLE, Opcodes.NOP);
    assertTrue(kernel.await(reset, WAIT), where + ": " + kernel.summary());
    Spec nop = new Spec(0, Opcodes.NOP, new int[0]);
    model.apply(new Published(Priority.IDLE.level(), reset, kernel.slotOf(reset), nop));
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (words(kernel.controlSnapshot())[ControlLayout.PRIORITY_STARVATION_COUNTER] != 0) {
      assertTrue(System.nanoTime() < deadline, where + ": an IDLE claim never reset the starvation counter");
      Thread.sleep(1);
    }
    for (Priority priority : List.of(Priority.CRITICAL, Priority.HIGH)) {
      TaskBatch batch = new TaskBatch(MAX_BATCH * 2).priority(priority);
      int size = 1 + random.nextInt(batch.capacity());
      for (int t = 0; t < size; t++) {
        batch.add(0, Opcodes.NOP);
      }
      long first = kernel.publish(batch);
      for (int t = 0; t < size; t++) {
        long ticket = Megakernel.batchTicket(first, t);
        model.apply(new Published(priority.level(), ticket, kernel.slotOf(ticket), nop));
      }
    }
    assertTrue(kernel.drain(WAIT), where + ": " + kernel.summary());
  }

  private static int[] words(byte[] bytes) {
    MemorySegment segment = MemorySegment.ofArray(bytes);
    int[] words = new int[(int) Words.count(segment)];
    for (int w = 0; w < words.length; w++) {
      words[w] = Words.get(segment, w);
    }
    return words;
  }

  /** The control block and ring that the tasks published so far imply. */
  private static final class Model {
    private final int[] control;
    private final long[] publishedPerLevel = new long[ControlLayout.PRIORITY_LEVELS];
    /** Each ring slot's expected words; zeros while unused. */
    private final int[][] slotWords;
    /** The ticket whose task {@link #slotWords} holds, per slot: publishers' tasks are applied in no ticket order. */
    private final long[] slotTicket;

    Model(int[] bootstrapped, int slots) {
      control = bootstrapped.clone();
      // A GPU kernel may not have said so yet when the first snapshot is taken.
      control[ControlLayout.KERNEL_STATE] = ControlLayout.KERNEL_STATE_RUNNING;
      slotWords = new int[slots][SlotLayout.SLOT_WORDS];
      slotTicket = new long[slots];
      Arrays.fill(slotTicket, -1);
    }

    /** Adds one task's counts and effects, and its outcome in its slot. */
    void apply(Published published) {
      int level = published.level();
      Spec task = published.task();
      publishedPerLevel[level]++;
      control[ControlLayout.publishSeqWord(level)]++;
      control[ControlLayout.PRIORITY_FAIRNESS_BASE + level]++;
      control[ControlLayout.TENANT_FAIRNESS_BASE + task.tenant() % ControlLayout.TENANT_FAIRNESS_SLOTS]++;
      control[ControlLayout.PRIORITY_STARVATION_COUNTER] = level <= Priority.HIGH.level()
          ? control[ControlLayout.PRIORITY_STARVATION_COUNTER] + 1 : 0;
      FaultReason fault = task.tenant() == REVOKED_TENANT ? FaultReason.TENANT_UNAUTHORIZED : execute(task);
      if (fault == FaultReason.NONE) {
        control[ControlLayout.DONE_COUNT]++;
      } else {
        control[ControlLayout.FAULT_COUNT]++;
      }
      if (published.ticket() < slotTicket[published.slot()]) {
        return;
      }
      slotTicket[published.slot()] = published.ticket();
      int[] slot = slotWords[published.slot()];
      slot[SlotLayout.STATUS_WORD] = fault == FaultReason.NONE ? SlotLayout.STATUS_DONE : SlotLayout.STATUS_FAULT;
      slot[SlotLayout.OPCODE_WORD] = task.opcode();
      slot[SlotLayout.TENANT_WORD] = task.tenant();
      slot[SlotLayout.PRIORITY_WORD] = fault == FaultReason.NONE ? level : fault.code();
      Arrays.fill(slot, SlotLayout.ARG0_WORD, SlotLayout.SLOT_WORDS, 0);
      System.arraycopy(task.args(), 0, slot, SlotLayout.ARG0_WORD, task.args().length);
      if (task.tenant() != REVOKED_TENANT) {
        leftArguments(task, slot);
      }
    }

    /** The arguments a task's runs change, as its last run leaves them in {@code slot}. */
    private static void leftArguments(Spec task, int[] slot) {
      switch (task.opcode()) {
        case YIELD_THEN_ADD, REQUEUE_THEN_ADD -> {
          slot[SlotLayout.ARG0_WORD] = 0;
          slot[SlotLayout.ARG0_WORD + ContinuingOpcode.RUNS_ARG] = task.args()[0] + 1;
        }
        case FAIL -> slot[SlotLayout.ARG0_WORD] = FAILED_MARK;
        default -> { }
      }
    }

    /** An authorized task's metrics (once per task) and effects; its fault, or NONE. */
    private FaultReason execute(Spec task) {
      int[] args = task.args();
      if (task.opcode() != Opcodes.PACKED_SLOT) {
        control[ControlLayout.metricWord(task.opcode())]++;
      }
      switch (task.opcode()) {
        case Opcodes.ATOMIC_ADD -> control[args[1]] += args[0];
        case Opcodes.BATCH_FENCE -> {
          control[ControlLayout.EPOCH]++;
          control[ControlLayout.OBSERVABLE_BASE] = args[1];
        }
        case YIELD_THEN_ADD, REQUEUE_THEN_ADD -> {
          control[ControlLayout.CONTINUATION_COUNT] += args[0];
          control[ControlLayout.observableWord(args[2])] += args[1];
        }
        case FAIL -> {
          return FaultReason.HANDLER_FAILED;
        }
        case Opcodes.PACKED_SLOT -> {
          control[ControlLayout.metricWord(Opcodes.ATOMIC_ADD)]++;
          control[ControlLayout.metricWord(Opcodes.NOP)]++;
          control[ControlLayout.observableWord(1)] += PackedSlotCodec.decode(args).getFirst().args()[0];
        }
        default -> { }
      }
      return FaultReason.NONE;
    }

    /**
     * Compares the kernel's control block and ring with the model; returns the compared words (the
     * excluded ones zeroed). {@code starvationKnown} after a probe; {@code exactClaims} on the reference
     * backend, whose claim cursors are the host's words and never pass the doorbells.
     */
    int[] check(Megakernel kernel, boolean starvationKnown, boolean exactClaims, String where) {
      int[] compared = words(kernel.controlSnapshot());
      for (int p = 0; exactClaims && p < ControlLayout.PRIORITY_LEVELS; p++) {
        int word = ControlLayout.claimSeqWord(p);
        long claimed = Integer.toUnsignedLong(compared[word]) | (long) compared[word + 1] << 32;
        assertEquals(publishedPerLevel[p], claimed, where + ": tickets claimed at level " + p);
      }
      for (int w = 0; w < compared.length; w++) {
        boolean claimCursor = w >= ControlLayout.CLAIM_SEQ_BASE && w < ControlLayout.claimSeqWord(ControlLayout.PRIORITY_LEVELS);
        if (claimCursor || w == ControlLayout.HEARTBEAT || !starvationKnown && w == ControlLayout.PRIORITY_STARVATION_COUNTER) {
          compared[w] = 0;
        } else {
          assertEquals(Integer.toUnsignedLong(control[w]), Integer.toUnsignedLong(compared[w]), where + ": control word " + w);
        }
      }
      MemorySegment ring = MemorySegment.ofArray(kernel.ringSnapshot());
      for (int s = 0; s < slotWords.length; s++) {
        for (int w = 0; w < SlotLayout.SLOT_WORDS; w++) {
          assertEquals(slotWords[s][w], Words.get(ring, SlotLayout.slotBase(s) + w), where + ": ring slot " + s + " word " + w);
        }
      }
      return compared;
    }
  }
}

package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Backend-neutral ({@link TestBackends}). One million tasks from four publisher threads with random opcodes (built-in ones,
 * user opcodes that YIELD or REQUEUE a few times before they finish, and one that marks the task's own id in a bitmap), priorities
 * and tenants: every task finishes exactly once, nothing is lost or doubled, unauthorized tenants never run. The counters show it
 * in sum; the bitmap task by task for the marking tasks (each id set, none set twice, no other bit set). And a ring of four retire chunks wrapping thousands of times under
 * publishers that wait for room (verifying chunks ahead of the retire turn), submit futures and await: every task retired and
 * counted exactly once.
 *
 * <p>{@link #exactlyOnceAtScale} runs the first at the size the system properties give ({@code vyre.exactlyOnce.tasks},
 * {@code .publishers}, {@code .slots}, {@code .batch}, {@code .seed}) and prints a summary line; {@code scripts/gpu-check.sh}
 * runs it with 100 M tasks and 8 publishers on the GPU.
 */
class MegakernelExactlyOnceTest {

  private static final int TASKS = 1_000_000;
  private static final int PUBLISHERS = 4;
  private static final int TENANTS = 6;
  private static final int REVOKED_TENANT = 5;
  /** Observable i counts the ATOMIC_ADDs of tenant i, 8 + i its continued tasks' adds; LOAD_U32 writes 16 + i. */
  private static final int OBSERVABLES = 32;
  private static final int CONTINUED_BASE = 8;
  private static final int YIELD_THEN_ADD = 8;
  private static final int REQUEUE_THEN_ADD = 9;
  private static final int MARK_ONCE = 10;
  /** Observable that counts marks of an id already marked: a task that ran twice. */
  private static final int DOUBLED_MARKS = 24;
  /** A continued task finishes YIELD or REQUEUE up to this many times before DONE. */
  private static final int MOST_CONTINUATIONS = 2;
  private static final int[] OPCODES = {Opcodes.NOP, Opcodes.ATOMIC_ADD, Opcodes.LOAD_U32, YIELD_THEN_ADD, REQUEUE_THEN_ADD, MARK_ONCE};
  /** Sets bit arg1 of the DEVICE bitmap resource arg0; a bit already set adds one to observable {@link #DOUBLED_MARKS}. */
  private static final UserOpcode MARK = UserOpcode.both(MARK_ONCE, "mark-once", slot -> {
    int id = slot.arg(1);
    int bit = 1 << (id & 31);
    if ((Words.getAndBitwiseOr(slot.resource(slot.arg(0)), id >>> 5, bit) & bit) != 0) {
      Words.getAndAdd(slot.control(), ControlLayout.observableWord(DOUBLED_MARKS), 1);
    }
    return SlotLayout.STATUS_DONE;
  }, """
      const VyreResource* r = vyre_resource(a, args[0]);
      if (!r || (args[1] >> 5) * 4ull + 4ull > vyre_resource_bytes(r)) { status = VYRE_STATUS_FAULT; }
      else {
        unsigned bit = 1u << (args[1] & 31u);
        if (atomicOr(reinterpret_cast<unsigned*>(r->ptr) + (args[1] >> 5), bit) & bit) vyre_add(a, VYRE_CTL_OBSERVABLE_BASE + """
      + DOUBLED_MARKS + "u, 1u);\n      }");
  private static final Duration DRAIN = Duration.ofSeconds(60);

  /** What a run counted: tasks published, the kernel's DONE_COUNT and FAULT_COUNT, the tasks of the revoked tenant, the ids marked. */
  private record Counts(long tasks, long done, long faults, long revoked, long marked, long nanos) {}

  @Property(tries = 3)
  void everyTaskCompletesExactlyOnce(@ForAll long seed, @ForAll @IntRange(min = 1, max = 64) int batchSize) throws Exception {
    run(seed, batchSize, TASKS, PUBLISHERS, 4096);
  }

  @Test
  @EnabledIfSystemProperty(named = "vyre.exactlyOnce.tasks", matches = "[0-9]+")
  void exactlyOnceAtScale() throws Exception {
    int tasks = Integer.getInteger("vyre.exactlyOnce.tasks");
    int publishers = Integer.getInteger("vyre.exactlyOnce.publishers", 8);
    int slots = Integer.getInteger("vyre.exactlyOnce.slots", 65536);
    int batch = Integer.getInteger("vyre.exactlyOnce.batch", 512);
    long seed = Long.getLong("vyre.exactlyOnce.seed", System.nanoTime());
    Counts counts = run(seed, batch, tasks, publishers, slots);
    // run() has checked every count: nothing lost or doubled.
    System.out.printf("exactly-once: %d tasks, %d publishers, %d slots, batches of %d, seed %d on %s: %d DONE, %d FAULT"
        + " (revoked tenant), 0 lost, 0 doubled (each of %d marking tasks' ids set once), in %.1f s (%.1f M tasks/s)%n",
        counts.tasks(), publishers, slots, batch, seed, TestBackends.selected().name(), counts.done(), counts.faults(), counts.marked(),
        counts.nanos() / 1e9,
        counts.tasks() * 1e3 / counts.nanos());
  }

  private static Counts run(long seed, int batchSize, int tasks, int publisherCount, int slots) throws Exception {
    // Each publisher counts what it published in its own arrays (shared counters would make the
    // publishers contend at scale); join() makes them visible here.
    long[][] expectedAdds = new long[publisherCount][TENANTS];
    long[][] expectedContinued = new long[publisherCount][TENANTS];
    long[][] expectedPerOpcode = new long[publisherCount][Opcodes.METERED_OPCODES];
    long[] revokedTasks = new long[publisherCount];
    // Publisher p marks ids idBase * p, idBase * p + 1, ...; the bitmap's last bit is the revoked tenant's, never to be set.
    int idBase = tasks / publisherCount + 1;
    long revokedId = (long) idBase * publisherCount;
    long bitmapBytes = (revokedId / 32 + 1) * 4;
    int[] marked = new int[publisherCount];
    AtomicReference<Throwable> failed = new AtomicReference<>();
    String where = "seed " + seed + ", batches of " + batchSize + ", " + tasks + " tasks from " + publisherCount + " publishers";
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(slots).tenants(TENANTS)
        .observables(OBSERVABLES).userOpcode(ContinuingOpcode.yielding(YIELD_THEN_ADD))
        .userOpcode(ContinuingOpcode.requeueing(REQUEUE_THEN_ADD)).userOpcode(MARK).publishTimeout(DRAIN).bootstrap()) {
      kernel.setTenantAuthorized(REVOKED_TENANT, false);
      int bitmap = kernel.allocateResource(bitmapBytes, ResourcePlacement.DEVICE);
      long started = System.nanoTime();
      Thread[] publishers = new Thread[publisherCount];
      for (int p = 0; p < publisherCount; p++) {
        int publisher = p;
        int share = tasks / publisherCount + (p < tasks % publisherCount ? 1 : 0);
        publishers[p] = Thread.ofPlatform().uncaughtExceptionHandler((thread, error) -> failed.compareAndSet(null, error)).start(() -> {
          SplittableRandom random = new SplittableRandom(seed + publisher);
          TaskBatch batch = new TaskBatch(batchSize);
          for (int i = 0; i < share; i++) {
            int tenant = random.nextInt(TENANTS);
            int opcode = OPCODES[random.nextInt(OPCODES.length)];
            switch (opcode) {
              case Opcodes.NOP -> batch.add3(tenant, opcode, 0, 0, 0);
              case Opcodes.ATOMIC_ADD -> batch.add3(tenant, opcode, 1, ControlLayout.OBSERVABLE_BASE + tenant, 0);
              case Opcodes.LOAD_U32 -> batch.add3(tenant, opcode, ControlLayout.DONE_COUNT, 16 + tenant, 0);
              case MARK_ONCE -> batch.add3(tenant, opcode, bitmap,
                  tenant == REVOKED_TENANT ? (int) revokedId : idBase * publisher + marked[publisher]++, 0);
              default -> batch.add3(tenant, opcode, random.nextInt(MOST_CONTINUATIONS + 1), 1, CONTINUED_BASE + tenant);
            }
            if (tenant == REVOKED_TENANT) {
              revokedTasks[publisher]++;
            } else {
              expectedPerOpcode[publisher][opcode]++;
              if (opcode == Opcodes.ATOMIC_ADD) {
                expectedAdds[publisher][tenant]++;
              } else if (opcode == YIELD_THEN_ADD || opcode == REQUEUE_THEN_ADD) {
                expectedContinued[publisher][tenant]++;
              }
            }
            if (batch.size() == batch.capacity()) {
              kernel.publish(batch.priority(Priority.ofLevel(random.nextInt(5))));
              batch.clear();
            }
          }
          if (batch.size() > 0) {
            kernel.publish(batch);
          }
        });
      }
      for (Thread publisher : publishers) {
        publisher.join();
      }
      if (failed.get() != null) {
        throw new AssertionError(where + ": a publisher failed", failed.get());
      }
      assertTrue(kernel.drain(DRAIN), where + ": " + kernel.summary());
      long nanos = System.nanoTime() - started;
      long revoked = 0;
      for (long count : revokedTasks) {
        revoked += count;
      }
      MemorySegment control = MemorySegment.ofArray(kernel.controlSnapshot());
      long done = word(control, ControlLayout.DONE_COUNT);
      long faults = word(control, ControlLayout.FAULT_COUNT);
      assertEquals(tasks - revoked, done, where + ": DONE_COUNT counts each authorized task once");
      assertEquals(revoked, faults, where + ": every revoked-tenant task faulted");
      for (int t = 0; t < TENANTS; t++) {
        assertEquals(sum(expectedAdds, t), word(control, ControlLayout.OBSERVABLE_BASE + t), where + ": adds of tenant " + t);
        assertEquals(sum(expectedContinued, t), word(control, ControlLayout.OBSERVABLE_BASE + CONTINUED_BASE + t),
            where + ": continued tasks of tenant " + t + " added once each, at their DONE");
      }
      assertEquals(0, word(control, ControlLayout.OBSERVABLE_BASE + REVOKED_TENANT), where + ": the revoked tenant never ran");
      for (int op : OPCODES) {
        assertEquals(sum(expectedPerOpcode, op), word(control, ControlLayout.METRICS_BASE + op), where + ": metric of opcode " + op);
      }
      assertEquals(0, word(control, ControlLayout.observableWord(DOUBLED_MARKS)), where + ": ids marked twice");
      long marks = checkMarks(kernel, bitmap, bitmapBytes, idBase, marked, where);
      Megakernel.Stats stats = kernel.stats();
      assertEquals(tasks, stats.published(), where);
      assertEquals(tasks, stats.retired(), where);
      assertEquals(tasks - revoked, stats.done(), where);
      assertEquals(revoked, stats.faults(), where);
      return new Counts(tasks, done, faults, revoked, marks, nanos);
    }
  }

  /** Checks that the bitmap holds publisher p's ids idBase * p .. + marked[p] and no other bit; returns how many. */
  private static long checkMarks(Megakernel kernel, int bitmap, long bytes, int idBase, int[] marked, String where) {
    MemorySegment bits = Arena.ofAuto().allocate(bytes, 4);
    kernel.readResource(bitmap, 0, bits);
    long set = 0;
    for (long w = 0; w < bytes / 4; w++) {
      set += Integer.bitCount(Words.get(bits, w));
    }
    long expected = 0;
    for (int p = 0; p < marked.length; p++) {
      for (long id = (long) idBase * p; id < (long) idBase * p + marked[p]; id++) {
        if ((Words.get(bits, id >>> 5) & 1 << (id & 31)) == 0) {
          throw new AssertionError(where + ": the task that marks id " + id + " (publisher " + p + ") never ran");
        }
      }
      expected += marked[p];
    }
    assertEquals(expected, set, where + ": bits set beyond the published ids (the revoked tenant's, or a wrong id)");
    return expected;
  }

  private static final int SMALL_RING = 1024;
  private static final int SMALL_RING_PUBLISHERS = 6;
  private static final int SMALL_RING_TASKS_EACH = 100_000;

  @Property(tries = 3)
  void aSmallRingWrappingUnderWaitingPublishersRetiresEveryTaskOnce(@ForAll long seed) throws Exception {
    ConcurrentLinkedQueue<CompletableFuture<TaskResult>> futures = new ConcurrentLinkedQueue<>();
    AtomicLongArray adds = new AtomicLongArray(SMALL_RING_PUBLISHERS);
    AtomicLongArray faultsExpected = new AtomicLongArray(SMALL_RING_PUBLISHERS);
    AtomicReference<Throwable> failed = new AtomicReference<>();
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(SMALL_RING).singlePriority(Priority.NORMAL)
        .tenants(TENANTS).observables(OBSERVABLES).publishTimeout(Duration.ofSeconds(60)).bootstrap()) {
      kernel.setTenantAuthorized(REVOKED_TENANT, false);
      List<Thread> publishers = new ArrayList<>();
      for (int p = 0; p < SMALL_RING_PUBLISHERS; p++) {
        int publisher = p;
        publishers.add(Thread.ofPlatform().uncaughtExceptionHandler((thread, error) -> failed.compareAndSet(null, error)).start(() -> {
          SplittableRandom random = new SplittableRandom(seed + publisher);
          TaskBatch batch = new TaskBatch(SMALL_RING / 2);
          int observable = ControlLayout.OBSERVABLE_BASE + publisher;
          int published = 0;
          while (published < SMALL_RING_TASKS_EACH) {
            int roll = random.nextInt(100);
            if (roll == 0) {
              // A future's chunk is left to the turn holder, which completes it and runs its
              // callback inside the retire pass: dawdling there, the callback lets the waiting
              // publishers verify ahead of the holder, as a lone retire thread beside a GPU does.
              CompletableFuture<TaskResult> future = kernel.submit(Task.of(Opcodes.ATOMIC_ADD, 1, observable));
              future.thenRun(() -> LockSupport.parkNanos(100_000));
              futures.add(future);
              adds.incrementAndGet(publisher);
              published++;
              continue;
            }
            batch.clear().priority(Priority.NORMAL);
            int size = Math.min(1 + random.nextInt(SMALL_RING / 2), SMALL_RING_TASKS_EACH - published);
            for (int i = 0; i < size; i++) {
              if (random.nextInt(1000) == 0) {
                batch.add3(REVOKED_TENANT, Opcodes.NOP, 0, 0, 0);
                faultsExpected.incrementAndGet(publisher);
              } else if ((i & 1) == 0) {
                batch.add3(0, Opcodes.NOP, 0, 0, 0);
              } else {
                batch.add3(0, Opcodes.ATOMIC_ADD, 1, observable, 0);
                adds.incrementAndGet(publisher);
              }
            }
            long first = kernel.publish(batch);
            published += size;
            if (roll < 5 && !kernel.await(Megakernel.batchTicket(first, size - 1), Duration.ofSeconds(60))) {
              throw new AssertionError("a batch did not finish: " + kernel.summary());
            }
          }
        }));
      }
      for (Thread publisher : publishers) {
        publisher.join();
      }
      if (failed.get() != null) {
        throw new AssertionError("a publisher failed", failed.get());
      }
      assertTrue(kernel.drain(Duration.ofSeconds(60)), kernel.summary());
      long faults = 0;
      for (int p = 0; p < SMALL_RING_PUBLISHERS; p++) {
        faults += faultsExpected.get(p);
      }
      for (CompletableFuture<TaskResult> future : futures) {
        assertEquals(SlotStatus.DONE, future.get(60, TimeUnit.SECONDS).status());
      }
      long tasks = (long) SMALL_RING_PUBLISHERS * SMALL_RING_TASKS_EACH;
      MemorySegment control = MemorySegment.ofArray(kernel.controlSnapshot());
      Megakernel.Stats stats = kernel.stats();
      assertEquals(tasks, stats.published());
      assertEquals(tasks, stats.retired(), "every ticket retired");
      assertEquals(tasks - faults, word(control, ControlLayout.DONE_COUNT), "the kernel ran each authorized task once");
      assertEquals(faults, word(control, ControlLayout.FAULT_COUNT));
      assertEquals(tasks - faults, stats.done(), "the host counted each DONE task once");
      assertEquals(faults, stats.faults(), "and each FAULT once");
      assertEquals(0, stats.waitIo());
      assertTrue(stats.verifiedAhead() <= stats.done(), stats.toString());
      for (int p = 0; p < SMALL_RING_PUBLISHERS; p++) {
        assertEquals(adds.get(p), word(control, ControlLayout.OBSERVABLE_BASE + p), "adds of publisher " + p);
      }
    }
  }

  /** Column {@code index} summed over the publishers' rows. */
  private static long sum(long[][] perPublisher, int index) {
    long total = 0;
    for (long[] row : perPublisher) {
      total += row[index];
    }
    return total;
  }

  private static long word(MemorySegment control, int index) {
    return Integer.toUnsignedLong(control.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * index));
  }
}

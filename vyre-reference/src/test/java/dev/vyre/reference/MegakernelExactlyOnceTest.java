package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotStatus;
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

/**
 * Backend-neutral ({@link TestBackends}). One million tasks from four publisher threads with random built-in opcodes, priorities and
 * tenants: every task finishes exactly once, nothing is lost or doubled, unauthorized tenants never run. And a ring of four
 * retire chunks wrapping thousands of times under publishers that wait for room (verifying chunks ahead of the retire turn),
 * submit futures and await: every task retired and counted exactly once.
 */
class MegakernelExactlyOnceTest {

  private static final int TASKS = 1_000_000;
  private static final int PUBLISHERS = 4;
  private static final int TENANTS = 6;
  private static final int REVOKED_TENANT = 5;
  /** Observable i counts the ATOMIC_ADDs of tenant i; observable 8 + i counts its NOP-tagged adds. */
  private static final int OBSERVABLES = 32;

  @Property(tries = 3)
  void everyTaskCompletesExactlyOnce(@ForAll long seed, @ForAll @IntRange(min = 1, max = 64) int batchSize) throws Exception {
    AtomicLongArray expectedAdds = new AtomicLongArray(TENANTS);
    AtomicLongArray expectedPerOpcode = new AtomicLongArray(Opcodes.METERED_OPCODES);
    long[] revokedTasks = new long[PUBLISHERS];
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(4096).tenants(TENANTS)
        .observables(OBSERVABLES).bootstrap()) {
      kernel.setTenantAuthorized(REVOKED_TENANT, false);
      Thread[] publishers = new Thread[PUBLISHERS];
      for (int p = 0; p < PUBLISHERS; p++) {
        int publisher = p;
        publishers[p] = Thread.ofPlatform().start(() -> {
          SplittableRandom random = new SplittableRandom(seed + publisher);
          TaskBatch batch = new TaskBatch(batchSize);
          for (int i = 0; i < TASKS / PUBLISHERS; i++) {
            int tenant = random.nextInt(TENANTS);
            int kind = random.nextInt(3);
            int observable = ControlLayout.OBSERVABLE_BASE + tenant;
            switch (kind) {
              case 0 -> batch.add3(tenant, Opcodes.NOP, 0, 0, 0);
              case 1 -> batch.add3(tenant, Opcodes.ATOMIC_ADD, 1, observable, 0);
              default -> batch.add3(tenant, Opcodes.LOAD_U32, ControlLayout.DONE_COUNT, 16 + tenant, 0);
            }
            if (tenant == REVOKED_TENANT) {
              revokedTasks[publisher]++;
            } else {
              int opcode = kind == 0 ? Opcodes.NOP : kind == 1 ? Opcodes.ATOMIC_ADD : Opcodes.LOAD_U32;
              expectedPerOpcode.incrementAndGet(opcode);
              if (kind == 1) {
                expectedAdds.incrementAndGet(tenant);
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
      assertTrue(kernel.drain(Duration.ofSeconds(60)), kernel.summary());
      long revoked = 0;
      for (long count : revokedTasks) {
        revoked += count;
      }
      MemorySegment control = MemorySegment.ofArray(kernel.controlSnapshot());
      assertEquals(TASKS - revoked, word(control, ControlLayout.DONE_COUNT), "DONE_COUNT counts each authorized task once");
      assertEquals(revoked, word(control, ControlLayout.FAULT_COUNT), "every revoked-tenant task faulted");
      for (int t = 0; t < TENANTS; t++) {
        assertEquals(expectedAdds.get(t), word(control, ControlLayout.OBSERVABLE_BASE + t), "adds of tenant " + t);
      }
      assertEquals(0, word(control, ControlLayout.OBSERVABLE_BASE + REVOKED_TENANT), "the revoked tenant never ran");
      for (int op : new int[] {Opcodes.NOP, Opcodes.ATOMIC_ADD, Opcodes.LOAD_U32}) {
        assertEquals(expectedPerOpcode.get(op), word(control, ControlLayout.METRICS_BASE + op), "metric of " + Opcodes.name(op));
      }
      Megakernel.Stats stats = kernel.stats();
      assertEquals(TASKS, stats.published());
      assertEquals(TASKS, stats.retired());
      assertEquals(TASKS - revoked, stats.done());
      assertEquals(revoked, stats.faults());
    }
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

  private static long word(MemorySegment control, int index) {
    return Integer.toUnsignedLong(control.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * index));
  }
}

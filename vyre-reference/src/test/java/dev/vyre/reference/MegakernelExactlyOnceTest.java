package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Backend-neutral ({@link TestBackends}). One million tasks from four publisher threads with random built-in opcodes, priorities and
 * tenants: every task finishes exactly once, nothing is lost or doubled, unauthorized tenants never run.
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

  private static long word(MemorySegment control, int index) {
    return Integer.toUnsignedLong(control.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * index));
  }
}

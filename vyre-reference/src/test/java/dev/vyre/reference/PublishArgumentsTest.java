package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.tenant.Tenant;
import dev.vyre.runtime.tenant.TenantRegistry;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link Megakernel#publish(int, Priority, int)} and its one-, two- and three-argument overloads:
 * they write the same slot as the varargs form, and a round trip through them allocates nothing
 * (a varargs call's array put a fresh heap page, and its first-touch fault, into every 256th round
 * trip). Backend-neutral: scripts/gpu-check.sh runs it on CUDA too.
 */
class PublishArgumentsTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @Test
  void theValueOverloadsWriteWhatTheVarargsFormWrites() {
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(64).observables(8).bootstrap()) {
      int first = ControlLayout.OBSERVABLE_BASE;
      await(kernel, kernel.publish(0, Priority.NORMAL, Opcodes.STORE_U32, 40, first));
      await(kernel, kernel.publish(0, Priority.NORMAL, Opcodes.ATOMIC_ADD, 2, first));
      assertEquals(42, kernel.observable(0), "STORE_U32 40, then ATOMIC_ADD 2, with two value arguments");
      await(kernel, kernel.publish(0, Priority.NORMAL, Opcodes.MEMCPY, first, first + 2, 1));
      assertEquals(42, kernel.observable(2), "MEMCPY with three value arguments");
      await(kernel, kernel.publish(0, Priority.NORMAL, Opcodes.MEMCPY, new int[] {first, first + 3, 1}));
      assertEquals(42, kernel.observable(3), "the varargs form");
      // One argument: BATCH_FENCE's arg1 (stored into observable 0) must be the 0 it was not given.
      await(kernel, kernel.publish(0, Priority.NORMAL, Opcodes.BATCH_FENCE, 9));
      assertEquals(0, kernel.observable(0));
      assertEquals(1, kernel.epoch());
      await(kernel, kernel.publish(0, Priority.NORMAL, Opcodes.NOP));
      assertEquals(6, kernel.doneCount());
    }
  }

  @Test
  void aRoundTripThroughTheValueOverloadsAllocatesNothing() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(1024).observables(4).bootstrap()) {
      int trips = 20_000;
      long bytes = 0;
      for (int round = 0; round < 3; round++) {
        // The first rounds let the JIT compile the path; the last one is measured.
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < trips; i++) {
          kernel.await(kernel.publish(0, Priority.NORMAL, Opcodes.NOP), TIMEOUT);
          kernel.await(kernel.publish(0, Priority.NORMAL, Opcodes.STORE_U32, i, ControlLayout.OBSERVABLE_BASE), TIMEOUT);
        }
        bytes = threads.getCurrentThreadAllocatedBytes() - before;
      }
      assertTrue(bytes < trips / 8, bytes + " bytes allocated over " + 2 * trips + " round trips");
    }
  }

  @Test
  void aTenantsRoundTripThroughTheValueOverloadsAllocatesNothing() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    // Tenant 1's local opcode 7 (its window starts at 0x4010_0000), a NOP on either backend.
    UserOpcode nop = UserOpcode.both(0x4010_0007, "tenant 1's nop", slot -> SlotLayout.STATUS_DONE, "status = VYRE_STATUS_DONE;");
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(1024).tenants(2).userOpcode(nop)
        .bootstrap()) {
      Tenant tenant = TenantRegistry.of(kernel).registerWithBackpressure("round trips", 64);
      int trips = 20_000;
      long bytes = 0;
      for (int round = 0; round < 3; round++) {
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < trips; i++) {
          kernel.await(tenant.publish(Priority.NORMAL, 7), TIMEOUT);
          kernel.await(tenant.publish(Priority.NORMAL, 7, i, i, i), TIMEOUT);
        }
        bytes = threads.getCurrentThreadAllocatedBytes() - before;
      }
      assertTrue(bytes < trips / 8, bytes + " bytes allocated over " + 2 * trips + " round trips");
      // An await may leave its own ticket's retirement to the next pass (Megakernel.await): drain first.
      assertTrue(kernel.drain(TIMEOUT), kernel.summary());
      assertEquals(6L * trips, kernel.stats().done());
    }
  }

  private static void await(Megakernel kernel, long ticket) {
    assertTrue(kernel.await(ticket, TIMEOUT), kernel.summary());
  }
}

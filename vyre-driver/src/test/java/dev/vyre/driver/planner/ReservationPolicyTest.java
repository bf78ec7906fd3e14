package dev.vyre.driver.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** docs/PORTS.md, "Reservations": capacities only grow, and failures become typed StorageReserveFailed errors. */
class ReservationPolicyTest {

  private static final ReservationPolicy POLICY = MegakernelBarrierPlanException.RESERVATION;
  private static final ReservationPolicy.Failure FAILURE = MegakernelBarrierPlanException::storageReserveFailed;

  @Test
  void reservationOnlyGrows() {
    int[] buffer = POLICY.reserveInts(new int[0], 10, "indegree", FAILURE);
    assertEquals(10, buffer.length);
    assertSame(buffer, POLICY.reserveInts(buffer, 4, "indegree", FAILURE));
    assertEquals(12, POLICY.reserveInts(buffer, 12, "indegree", FAILURE).length);
  }

  @Test
  void unrepresentableRequestsFailWithVyresMessage() {
    MegakernelBarrierPlanException overflow = assertThrows(MegakernelBarrierPlanException.class,
        () -> POLICY.reserveInts(new int[0], -2L, "outgoing counts", FAILURE));
    assertEquals(MegakernelBarrierPlanException.Variant.StorageReserveFailed, overflow.variant());
    assertEquals(-2L, overflow.fields().get("requested"));
    String message = (String) overflow.fields().get("message");
    assertEquals("megakernel barrier planner could not reserve 18446744073709551614 outgoing counts(s): memory "
        + "allocation failed because the computed capacity exceeded the collection's maximum. Fix: shard the dependency "
        + "graph before barrier planning.", message);
    MegakernelBarrierPlanException refused = assertThrows(MegakernelBarrierPlanException.class,
        () -> POLICY.reserveInts(new int[0], 1L << 33, "indegree", FAILURE));
    assertTrue(((String) refused.fields().get("message")).contains("allocator returned an error"));
    assertTrue(refused.display().contains("Fix:"));
  }
}

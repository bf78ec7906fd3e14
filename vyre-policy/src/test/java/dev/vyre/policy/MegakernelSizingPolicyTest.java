package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MegakernelSizingPolicyTest {

  private static final MegakernelSizingPolicy SIZING = MegakernelSizingPolicy.standard();

  @Test
  void standardConstantsAreVyres() {
    assertEquals(new MegakernelSizingPolicy(256, 1024, 4096, 64, 4), SIZING);
  }

  @Test
  void fusedThreadsMayOverDispatchFourTimes() {
    assertTrue(SIZING.allowFusedThreads(400, 100));
    assertFalse(SIZING.allowFusedThreads(401, 100));
  }

  @ParameterizedTest
  @CsvSource({"512, 256, 256", "0, 256, 1", "128, 256, 128", "5, 0, 1"})
  void workerWorkgroupSize(long workers, long maxX, long expected) {
    assertEquals(expected, SIZING.workerWorkgroupSize(workers, maxX));
  }

  @ParameterizedTest
  @CsvSource({"65, 64, 128", "128, 64, 128", "1, 64, 64", "0, 64, 64", "4294967295, 64, 4294967232"})
  void paddedSlotCount(long slots, long workgroup, long expected) {
    assertEquals(expected, SIZING.paddedSlotCount(slots, workgroup));
  }

  @ParameterizedTest
  @CsvSource({"64, 32, 64, 1", "2, 4096, 64, 2", "64, 300, 256, 2", "9999, 999999, 64, 1024"})
  void dispatchGridFor(long workers, long queue, long width, long expected) {
    assertEquals(expected, SIZING.dispatchGridFor(workers, queue, width));
  }

  @ParameterizedTest
  @CsvSource({"65536, 4096, 256", "256, 128, 1", "65535, 256, 255", "1000000, 1024, 1024"})
  void defaultWorkerGroupsFromLimits(long maxGroups, long maxInvocations, long expected) {
    assertEquals(expected, SIZING.defaultWorkerGroupsFromLimits(maxGroups, maxInvocations));
  }

  @ParameterizedTest
  @CsvSource({
    "300, 64, 256, 64, 320, 5",
    "1, 1000, 256, 256, 256, 1",
    "0, 0, 0, 1, 1, 1",
    "65, 64, 256, 64, 128, 2",
    "100000, 51, 256, 51, 100011, 51"
  })
  void geometryFromSlots(long slots, long workers, long maxX, long width, long slotCount, long grid) {
    assertEquals(new MegakernelLaunchGeometry(width, slotCount, grid), SIZING.geometryFromSlots(slots, workers, maxX));
  }

  @ParameterizedTest
  @CsvSource({
    "300, 64, 256, 64, 256, 64, 320, 5, 64",
    "0, 0, 256, 65535, 256, 255, 255, 1, 255",
    "5000, 0, 256, 65535, 4096, 255, 5100, 20, 255",
    "5000, 2000, 1024, 65535, 1024, 1024, 5120, 5, 2000",
    "1, 1, 1, 1, 1, 1, 1, 1, 1"
  })
  void calculateOptimalGrid(long queue, long workers, long maxX, long maxGroups, long maxInvocations, long width,
      long slots, long grid, long workerGroups) {
    MegakernelGridPlan plan = SIZING.calculateOptimalGrid(
        new MegakernelGridRequest(queue, workers), new MegakernelGridLimits(maxX, maxGroups, maxInvocations));
    assertEquals(new MegakernelGridPlan(new MegakernelLaunchGeometry(width, slots, grid), workerGroups), plan);
  }

  @Test
  void workerCountIsAlsoTheWidthUpToU32Max() {
    long max = Unsigned.U32_MAX;
    MegakernelGridPlan plan =
        SIZING.calculateOptimalGrid(new MegakernelGridRequest(5, max), new MegakernelGridLimits(max, max, max));
    assertEquals(new MegakernelLaunchGeometry(max, max, 1), plan.geometry());
    assertArrayEquals(new long[] {1, 1, 1}, plan.geometry().dispatchGrid());
  }

  @Test
  void zeroLimitsFailInOrderXGroupsInvocationsEvenForAnEmptyQueue() {
    assertLimitError("max_workgroup_size_x", new MegakernelGridLimits(0, 0, 0));
    assertLimitError("max_compute_workgroups_per_dimension", new MegakernelGridLimits(1, 0, 0));
    assertLimitError("max_compute_invocations_per_workgroup", new MegakernelGridLimits(1, 1, 0));
  }

  @Test
  void outOfRangeValuesAreInputErrors() {
    assertThrows(InputException.class, () -> new MegakernelGridRequest(1L << 32, 0));
    assertThrows(InputException.class, () -> new MegakernelSizingPolicy(0, 1024, 4096, 64, 4));
  }

  private static void assertLimitError(String field, MegakernelGridLimits limits) {
    BackendException error = assertThrows(BackendException.class,
        () -> SIZING.calculateOptimalGrid(new MegakernelGridRequest(0, 0), limits));
    assertEquals(BackendException.Variant.Other, error.variant());
    assertEquals("megakernel " + field + " must be non-zero. Fix: pass live adapter limits instead of a zero limit.",
        error.getMessage());
  }
}

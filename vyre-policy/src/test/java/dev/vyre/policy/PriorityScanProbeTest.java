package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The priority-scan helpers of docs/PORTS.md, "Priority partitions and scan". */
class PriorityScanProbeTest {

  @ParameterizedTest
  @CsvSource({"0, 256, 0", "1, 256, 1", "256, 256, 1", "257, 256, 2", "5, 0, 5", "0, 0, 0",
      "4294967295, 1, 4294967295", "4294967295, 4294967295, 1", "4294967295, 2, 2147483648"})
  void probeCount(long len, long width, long expected) {
    assertEquals(expected, PriorityScanProbe.probeCount(len, width));
  }

  @ParameterizedTest
  @CsvSource({"0, 256, 0", "10, 256, 10", "300, 256, 256", "5, 0, 1", "0, 0, 0"})
  void activeLanes(long len, long width, long expected) {
    assertEquals(expected, PriorityScanProbe.activeLanes(len, width));
  }

  @Test
  void budgetOverTheDefaultPartitionsOf1024Slots() {
    assertEquals(1024, budgetSum(1024, 1024));
    long narrow = budgetSum(1024, 256);
    assertTrue(narrow <= 1024 + 256 * 5, Long.toString(narrow));
    assertEquals(1024, narrow);
    assertEquals(5 * 300, budgetSum(1024, 100), "partitions of 204 and 208 slots take 3 probes on each of 100 lanes");
  }

  @Test
  void budgetMayPassU32Max() {
    assertEquals(1L << 32, PriorityScanProbe.probeBudget(Unsigned.U32_MAX, 1L << 31));
  }

  @ParameterizedTest
  @CsvSource({
    "10, 20, 25, 15",
    "10, 20, 9, 19",
    "5, 5, 7, 5",
    "20, 10, 3, 23",
    "4294967294, 1, 5, 0",
    "0, 4294967295, 4294967295, 0"
  })
  void policyOffsetStart(long start, long end, long lane, long expected) {
    assertEquals(expected, PriorityScanProbe.policyOffsetStart(start, end, lane));
  }

  @Test
  void tenantFairnessReadsTheCounterOfTenantMod32() {
    MemorySegment control = MemorySegment.ofArray(ControlLayout.encode(false, 1, 0));
    Words.set(control, ControlLayout.TENANT_FAIRNESS_BASE + 5, 63);
    Words.set(control, ControlLayout.TENANT_FAIRNESS_BASE + 31, 64);
    assertTrue(PriorityScanProbe.checkTenantFairness(control, 5));
    assertTrue(PriorityScanProbe.checkTenantFairness(control, 37));
    assertTrue(PriorityScanProbe.checkTenantFairness(control, 0));
    assertFalse(PriorityScanProbe.checkTenantFairness(control, 31));
    assertFalse(PriorityScanProbe.checkTenantFairness(control, -1), "u32::MAX mod 32 is 31");
    Words.set(control, ControlLayout.TENANT_FAIRNESS_BASE + 31, -1);
    assertFalse(PriorityScanProbe.checkTenantFairness(control, 31), "the counter is unsigned");
  }

  @Test
  void priorityFairnessReadsWords136To140() {
    MemorySegment control = MemorySegment.ofArray(ControlLayout.encode(false, 1, 0));
    Words.set(control, ControlLayout.PRIORITY_FAIRNESS_BASE + 2, 15);
    Words.set(control, ControlLayout.PRIORITY_FAIRNESS_BASE + 4, 16);
    assertTrue(PriorityScanProbe.checkPriorityFairness(control, 0));
    assertTrue(PriorityScanProbe.checkPriorityFairness(control, 2));
    assertFalse(PriorityScanProbe.checkPriorityFairness(control, 4));
    for (int level : new int[] {-1, 5}) {
      assertThrows(InputException.class, () -> PriorityScanProbe.checkPriorityFairness(control, level));
    }
  }

  @Test
  void fairnessOnAShortOrMisalignedControlIsATypedError() {
    MemorySegment shortControl = MemorySegment.ofArray(new byte[4 * 100]);
    assertEquals(ProtocolException.Variant.MissingWord,
        assertThrows(ProtocolException.class, () -> PriorityScanProbe.checkPriorityFairness(shortControl, 0)).variant());
    assertTrue(PriorityScanProbe.checkTenantFairness(shortControl, 3));
    assertThrows(ProtocolException.class, () -> PriorityScanProbe.checkTenantFairness(MemorySegment.ofArray(new byte[4 * 70]), 10));
    assertEquals(ProtocolException.Variant.MisalignedByteLength, assertThrows(ProtocolException.class,
        () -> PriorityScanProbe.checkTenantFairness(MemorySegment.ofArray(new byte[641]), 0)).variant());
  }

  @Test
  void valuesOutsideU32AreInputErrors() {
    assertThrows(InputException.class, () -> PriorityScanProbe.probeCount(-1, 1));
    assertThrows(InputException.class, () -> PriorityScanProbe.activeLanes(1, 1L << 32));
    assertThrows(InputException.class, () -> PriorityScanProbe.policyOffsetStart(0, 1, 1L << 32));
  }

  /** Every slot of a partition is probed at least once, and the lanes waste less than one round. */
  @Property
  void budgetCoversThePartitionWithinOneRound(
      @ForAll @LongRange(min = 0, max = 0xFFFF_FFFFL) long len, @ForAll @LongRange(min = 0, max = 0xFFFF_FFFFL) long width) {
    long budget = PriorityScanProbe.probeBudget(len, width);
    assertTrue(budget >= len);
    assertTrue(len == 0 ? budget == 0 : budget < len + Math.max(width, 1));
  }

  @Property
  void aLaneStartsInsideItsPartition(
      @ForAll @LongRange(min = 0, max = 0xFFFF_FFFFL) long start, @ForAll @LongRange(min = 0, max = 0xFFFF_FFFFL) long end,
      @ForAll @LongRange(min = 0, max = 0xFFFF_FFFFL) long lane) {
    Assume.that(start < end);
    long slot = PriorityScanProbe.policyOffsetStart(start, end, lane);
    assertTrue(slot >= start && slot < end);
  }

  @Property
  void defaultPartitionsNeverNeedMoreThanOneProbePerSlotAtFullWidth(@ForAll @IntRange(min = 0, max = 1 << 20) int total) {
    assertEquals(total, budgetSum(total, total));
  }

  private static long budgetSum(int total, long width) {
    int[] offsets = ControlLayout.defaultPriorityOffsets(total);
    long sum = 0;
    for (int p = 0; p < ControlLayout.PRIORITY_LEVELS; p++) {
      sum += PriorityScanProbe.probeBudget(offsets[p + 1] - offsets[p], width);
    }
    return sum;
  }
}

package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The automata worklist policy of docs/PORTS.md, "Automata worklist". */
class AutomataWorklistPolicyTest {

  private static final AutomataWorklistPolicy STANDARD = AutomataWorklistPolicy.standard();

  @Test
  void standardThresholdsAreVyres() {
    assertEquals(new AutomataWorklistPolicy(64, 1_048_576, 8, 5000), STANDARD);
  }

  /** vyre's hand-derived vectors, then the boundaries of each test. */
  @ParameterizedTest
  @CsvSource({
    "10, 9000, Blocking, 80",
    "10, 4000, NonBlocking, 80",
    "64, 9000, NonBlocking, 512",
    "1048577, 9000, SpillRequired, 8388616",
    "1048577, 0, SpillRequired, 8388616",
    "0, 0, Empty, 0",
    "0, 9000, Empty, 0",
    "1048576, 9000, NonBlocking, 8388608",
    "63, 5000, Blocking, 504",
    "63, 4999, NonBlocking, 504",
    "1, 4294967295, Blocking, 8"
  })
  void modeAndBudget(long depth, long occupancy, AutomataWorklistMode mode, long budget) {
    assertEquals(mode, STANDARD.mode(depth, occupancy));
    AutomataWorklistEvidence evidence = STANDARD.evidence(depth, occupancy);
    assertEquals(new AutomataWorklistEvidence(1, depth, Math.min(occupancy, 10_000), mode, budget, true, true), evidence);
  }

  @Test
  void occupancyIsReportedClampedTo10000ButDecidedAsGiven() {
    AutomataWorklistPolicy strict = new AutomataWorklistPolicy(64, 1_048_576, 8, 12_000);
    assertEquals(AutomataWorklistMode.Blocking, strict.mode(10, 15_000));
    AutomataWorklistEvidence evidence = strict.evidence(10, 15_000);
    assertEquals(10_000, evidence.occupancyBps());
    assertEquals(AutomataWorklistMode.Blocking, evidence.mode());
  }

  @Test
  void budgetOverflowingU32IsAnErrorEvenWhereTheModeIsSpillRequired() {
    assertEquals(4_294_967_288L, STANDARD.stateVisitBudget(536_870_911));
    BackendException error = assertThrows(BackendException.class, () -> STANDARD.stateVisitBudget(536_870_912));
    assertEquals(BackendException.Variant.Other, error.variant());
    assertTrue(error.getMessage().contains("state_visit_budget overflowed u32"), error.getMessage());
    assertTrue(error.getMessage().contains("Fix: "), error.getMessage());
    assertEquals(AutomataWorklistMode.SpillRequired, STANDARD.mode(Unsigned.U32_MAX, 0));
    assertThrows(BackendException.class, () -> STANDARD.evidence(Unsigned.U32_MAX, 0));
  }

  @Test
  void valuesOutsideU32AreInputErrors() {
    assertThrows(InputException.class, () -> STANDARD.mode(1L << 32, 0));
    assertThrows(InputException.class, () -> STANDARD.mode(1, -1));
    assertThrows(InputException.class, () -> STANDARD.stateVisitBudget(-1));
    assertThrows(InputException.class, () -> new AutomataWorklistPolicy(64, 1L << 32, 8, 5000));
  }

  @Provide
  Arbitrary<AutomataWorklistPolicy> policies() {
    Arbitrary<Long> u32 = Arbitraries.oneOf(Arbitraries.longs().between(0, Unsigned.U32_MAX),
        Arbitraries.longs().between(0, 20_000));
    return Combinators.combine(u32, u32, u32, u32).as(AutomataWorklistPolicy::new)
        .injectDuplicates(0.1).edgeCases(edges -> edges.add(STANDARD));
  }

  @Provide
  Arbitrary<Long> u32s() {
    return Arbitraries.oneOf(Arbitraries.longs().between(0, Unsigned.U32_MAX), Arbitraries.longs().between(0, 2_000_000));
  }

  /** Empty, then SpillRequired, then NonBlocking, then Blocking: each test wins over every later one. */
  @Property
  void modesFollowTheirPrecedence(
      @ForAll("policies") AutomataWorklistPolicy policy, @ForAll("u32s") long depth, @ForAll("u32s") long occupancy) {
    AutomataWorklistMode mode = policy.mode(depth, occupancy);
    assertEquals(depth == 0, mode == AutomataWorklistMode.Empty);
    if (depth != 0) {
      assertEquals(depth > policy.spillDepthThreshold(), mode == AutomataWorklistMode.SpillRequired);
    }
    if (depth != 0 && depth <= policy.spillDepthThreshold()) {
      boolean nonBlocking = depth >= policy.nonblockingDepthThreshold() || occupancy < policy.lowOccupancyThresholdBps();
      assertEquals(nonBlocking ? AutomataWorklistMode.NonBlocking : AutomataWorklistMode.Blocking, mode);
    }
  }

  @Property
  void evidenceAgreesWithModeAndBudget(
      @ForAll("policies") AutomataWorklistPolicy policy, @ForAll("u32s") long depth, @ForAll("u32s") long occupancy) {
    boolean overflows = depth != 0 && policy.stateVisitBudgetMultiplier() > Unsigned.U32_MAX / depth;
    if (overflows) {
      assertThrows(BackendException.class, () -> policy.evidence(depth, occupancy));
      return;
    }
    AutomataWorklistEvidence evidence = policy.evidence(depth, occupancy);
    assertEquals(policy.mode(depth, occupancy), evidence.mode());
    assertEquals(depth * policy.stateVisitBudgetMultiplier(), evidence.stateVisitBudget());
    assertTrue(evidence.occupancyBps() <= 10_000);
    assertEquals(AutomataWorklistEvidence.SCHEMA_VERSION, evidence.schemaVersion());
  }
}

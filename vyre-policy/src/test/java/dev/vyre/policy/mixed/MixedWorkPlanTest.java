package dev.vyre.policy.mixed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The mixed-work vectors of docs/PORTS.md, "Mixed work", and the validation order. */
class MixedWorkPlanTest {

  private static final MixedWorkUnitType[] VECTOR_TYPES = {MixedWorkUnitType.ScanChunk,
      MixedWorkUnitType.GraphFrontier, MixedWorkUnitType.ParserShard, MixedWorkUnitType.FlowRelationDelta,
      MixedWorkUnitType.DrainSentinel};

  /** Unit {@code s} of the vector: artifact 100+s, slab 200+s, budget 10, payload 0xfeed0000+s. */
  static MixedWorkUnit vectorUnit(int s, MixedWorkUnitType type) {
    return new MixedWorkUnit(s, type.queueClass(), type, 100 + s, 200 + s, 10, 0xfeed0000L + s);
  }

  /** The five-unit vector: sequences 1..5, classes Scan..Control with types 11, 21, 31, 41, 51. */
  static List<MixedWorkUnit> vectorUnits() {
    List<MixedWorkUnit> units = new ArrayList<>();
    for (int s = 1; s <= 5; s++) {
      units.add(vectorUnit(s, VECTOR_TYPES[s - 1]));
    }
    return units;
  }

  @Test
  void tagsAndLabelsAreVyres() {
    assertEquals(List.of(1, 2, 3, 4, 5), List.of(MixedWorkQueueClass.values()).stream().map(MixedWorkQueueClass::tag).toList());
    assertEquals(List.of("scan", "graph", "parser", "flow", "control"),
        List.of(MixedWorkQueueClass.values()).stream().map(MixedWorkQueueClass::label).toList());
    assertEquals(List.of(11, 12, 21, 22, 31, 32, 41, 42, 51),
        List.of(MixedWorkUnitType.values()).stream().map(MixedWorkUnitType::tag).toList());
    assertEquals(List.of("scan_chunk", "scan_verifier", "graph_frontier", "graph_compaction", "parser_shard",
        "parser_changed_range", "flow_relation_delta", "flow_fixpoint_step", "drain_sentinel"),
        List.of(MixedWorkUnitType.values()).stream().map(MixedWorkUnitType::label).toList());
    for (MixedWorkUnitType type : MixedWorkUnitType.values()) {
      assertEquals(type.tag() / 10, type.queueClass().tag(), type.label());
    }
  }

  @Test
  void fiveUnitVectorIsCompleteWithVyresDigest() {
    MixedWorkEvidence evidence = new MixedWorkPlan(vectorUnits(), 64).evidence();
    assertEquals(1, evidence.schemaVersion());
    assertEquals(5, evidence.unitCount());
    for (MixedWorkQueueClass queueClass : MixedWorkQueueClass.values()) {
      assertEquals(1, evidence.units(queueClass), queueClass.label());
    }
    assertEquals(50, evidence.totalWatchdogBudgetTicks());
    assertEquals(10, evidence.maxUnitWatchdogBudgetTicks());
    assertEquals(64, evidence.drainWatchdogBudgetTicks());
    assertTrue(evidence.boundedDrain());
    assertEquals(0, evidence.hiddenHostLoopCount());
    assertEquals(0xbb010e726587ee26L, evidence.digest());
    assertTrue(evidence.isComplete());
    assertTrue(evidence.coversScanGraphParserFlow());
  }

  @Test
  void aPlanWithoutFlowDoesNotCoverTheFourDomains() {
    MixedWorkEvidence evidence = new MixedWorkPlan(vectorUnits().subList(0, 3), 64).evidence();
    assertTrue(evidence.isComplete());
    assertFalse(evidence.coversScanGraphParserFlow());
  }

  @Test
  void budgetsAboveTheDrainBudgetAreRefusedWithBothTotals() {
    List<MixedWorkUnit> units = vectorUnits().subList(0, 2);
    MixedWorkException error = assertThrows(MixedWorkException.class, () -> new MixedWorkPlan(units, 19).evidence());
    assertEquals("MixedWorkError", error.errorType());
    assertEquals(MixedWorkException.Variant.WatchdogBudgetExceeded, error.variant());
    assertEquals(Map.of("total", 20L, "drain", 19L), error.fields());
    assertTrue(error.display().endsWith("Fix: raise the drain budget or split the plan."));
    assertEquals(20, new MixedWorkPlan(units, 20).evidence().totalWatchdogBudgetTicks());
  }

  @Test
  void aUnitTypeUnderAnotherClassIsRefusedByLabel() {
    MixedWorkUnit unit = new MixedWorkUnit(9, MixedWorkQueueClass.Parser, MixedWorkUnitType.FlowFixpointStep, 1, 1, 1, 0);
    MixedWorkException error = assertThrows(MixedWorkException.class,
        () -> new MixedWorkPlan(List.of(unit), 64).evidence());
    assertEquals(MixedWorkException.Variant.QueueClassMismatch, error.variant());
    assertEquals(List.of("sequence", "class", "unit_type"), List.copyOf(error.fields().keySet()));
    assertEquals(9L, error.fields().get("sequence"));
    assertEquals("parser", error.fields().get("class"));
    assertEquals("flow_fixpoint_step", error.fields().get("unit_type"));
  }

  @Test
  void planLevelChecksComeFirst() {
    assertEquals(MixedWorkException.Variant.EmptyPlan, variantOf(new MixedWorkPlan(List.of(), 0)));
    MixedWorkUnit broken = new MixedWorkUnit(1, MixedWorkQueueClass.Scan, MixedWorkUnitType.DrainSentinel, 0, 0, 0, 0);
    assertEquals(MixedWorkException.Variant.ZeroDrainWatchdogBudget, variantOf(new MixedWorkPlan(List.of(broken), 0)));
  }

  @Test
  void unitFaultsAreReportedBeforeTheBudgetTotal() {
    MixedWorkUnit huge = new MixedWorkUnit(1, MixedWorkQueueClass.Scan, MixedWorkUnitType.ScanChunk, 1, 1, -1, 0);
    MixedWorkUnit noSlab = new MixedWorkUnit(2, MixedWorkQueueClass.Scan, MixedWorkUnitType.ScanChunk, 1, 0, 1, 0);
    MixedWorkException error = assertThrows(MixedWorkException.class,
        () -> new MixedWorkPlan(List.of(huge, noSlab), 1).evidence());
    assertEquals(MixedWorkException.Variant.ZeroOutputSlabId, error.variant());
    assertEquals(Map.of("sequence", 2L), error.fields());
  }

  @Test
  void budgetsAreUnsignedU32AndTheDrainBudgetUnsignedU64() {
    MixedWorkUnit max = new MixedWorkUnit(-1, MixedWorkQueueClass.Control, MixedWorkUnitType.DrainSentinel, -1, -1, -1, -1);
    MixedWorkEvidence evidence = new MixedWorkPlan(List.of(max, max), -1).evidence();
    assertEquals(2 * 0xFFFF_FFFFL, evidence.totalWatchdogBudgetTicks());
    assertEquals(0xFFFF_FFFFL, evidence.maxUnitWatchdogBudgetTicks());
    MixedWorkException error = assertThrows(MixedWorkException.class,
        () -> new MixedWorkPlan(List.of(max, max), 0xFFFF_FFFFL).evidence());
    assertEquals(Map.of("total", 2 * 0xFFFF_FFFFL, "drain", 0xFFFF_FFFFL), error.fields());
    MixedWorkException mismatch = assertThrows(MixedWorkException.class, () -> new MixedWorkPlan(
        List.of(new MixedWorkUnit(-1, MixedWorkQueueClass.Scan, MixedWorkUnitType.DrainSentinel, 1, 1, 1, 0)), 1).evidence());
    assertTrue(mismatch.display().startsWith("mixed-work unit 18446744073709551615 "));
  }

  @Test
  void thePlanCopiesItsUnits() {
    List<MixedWorkUnit> units = vectorUnits();
    MixedWorkPlan plan = new MixedWorkPlan(units, 64);
    units.clear();
    assertEquals(0xbb010e726587ee26L, plan.evidence().digest());
  }

  /**
   * One unit with any combination of faults reports the first in vyre's order: zero budget, zero
   * artifact, zero slab, class mismatch; a sound unit reaches the budget total.
   */
  @Property
  void eachUnitReportsItsFirstFaultInVyresOrder(@ForAll boolean zeroBudget, @ForAll boolean zeroArtifact,
      @ForAll boolean zeroSlab, @ForAll boolean mismatch, @ForAll @IntRange(min = 0, max = 4) int soundBefore) {
    List<MixedWorkUnit> units = new ArrayList<>(vectorUnits().subList(0, soundBefore));
    MixedWorkUnitType type = mismatch ? MixedWorkUnitType.GraphCompaction : MixedWorkUnitType.ScanVerifier;
    units.add(new MixedWorkUnit(77, MixedWorkQueueClass.Scan, type, zeroArtifact ? 0 : 5, zeroSlab ? 0 : 6,
        zeroBudget ? 0 : 1_000, 0));
    MixedWorkException.Variant expected = zeroBudget ? MixedWorkException.Variant.ZeroUnitWatchdogBudget
        : zeroArtifact ? MixedWorkException.Variant.ZeroResidentArtifactId
        : zeroSlab ? MixedWorkException.Variant.ZeroOutputSlabId
        : mismatch ? MixedWorkException.Variant.QueueClassMismatch
        : MixedWorkException.Variant.WatchdogBudgetExceeded;
    MixedWorkException error = assertThrows(MixedWorkException.class, () -> new MixedWorkPlan(units, 64).evidence());
    assertEquals(expected, error.variant());
    if (expected != MixedWorkException.Variant.WatchdogBudgetExceeded) {
      assertEquals(77L, error.fields().get("sequence"));
    }
  }

  /** Changing any one digested field of any one unit changes the digest. */
  @Property
  void theDigestCoversEveryFieldOfEveryUnit(@ForAll @IntRange(min = 0, max = 4) int unit,
      @ForAll Edit edit, @ForAll long value) {
    List<MixedWorkUnit> units = vectorUnits();
    MixedWorkUnit before = units.get(unit);
    MixedWorkUnit after = edit.apply(before, value);
    if (after.equals(before)) {
      return;
    }
    units.set(unit, after);
    assertNotEquals(0xbb010e726587ee26L, new MixedWorkPlan(units, -1).evidence().digest());
  }

  /** Swapping two units changes the digest: it is folded in unit order. */
  @Property
  void theDigestFollowsUnitOrder(@ForAll @IntRange(min = 0, max = 3) int first) {
    List<MixedWorkUnit> units = vectorUnits();
    units.add(first + 1, units.remove(first));
    assertNotEquals(0xbb010e726587ee26L, new MixedWorkPlan(units, 64).evidence().digest());
  }

  enum Edit {
    SEQUENCE, TYPE_WITHIN_CLASS, ARTIFACT, SLAB, BUDGET, PAYLOAD;

    /** {@code unit} with one field set from {@code value}, kept valid (non-zero ids and budget). */
    MixedWorkUnit apply(MixedWorkUnit unit, long value) {
      int nonZero = (int) value == 0 ? 1 : (int) value;
      return switch (this) {
        case SEQUENCE -> new MixedWorkUnit(value, unit.queueClass(), unit.unitType(), unit.residentArtifactId(),
            unit.outputSlabId(), unit.watchdogBudgetTicks(), unit.payloadDigest());
        case TYPE_WITHIN_CLASS -> new MixedWorkUnit(unit.sequence(), unit.queueClass(), sibling(unit.unitType()),
            unit.residentArtifactId(), unit.outputSlabId(), unit.watchdogBudgetTicks(), unit.payloadDigest());
        case ARTIFACT -> new MixedWorkUnit(unit.sequence(), unit.queueClass(), unit.unitType(), nonZero,
            unit.outputSlabId(), unit.watchdogBudgetTicks(), unit.payloadDigest());
        case SLAB -> new MixedWorkUnit(unit.sequence(), unit.queueClass(), unit.unitType(), unit.residentArtifactId(),
            nonZero, unit.watchdogBudgetTicks(), unit.payloadDigest());
        case BUDGET -> new MixedWorkUnit(unit.sequence(), unit.queueClass(), unit.unitType(), unit.residentArtifactId(),
            unit.outputSlabId(), nonZero, unit.payloadDigest());
        case PAYLOAD -> new MixedWorkUnit(unit.sequence(), unit.queueClass(), unit.unitType(), unit.residentArtifactId(),
            unit.outputSlabId(), unit.watchdogBudgetTicks(), value);
      };
    }

    /** Another type of the same class, or the type itself for Control, which has one. */
    private static MixedWorkUnitType sibling(MixedWorkUnitType type) {
      for (MixedWorkUnitType other : MixedWorkUnitType.values()) {
        if (other != type && other.queueClass() == type.queueClass()) {
          return other;
        }
      }
      return type;
    }
  }

  private static MixedWorkException.Variant variantOf(MixedWorkPlan plan) {
    return assertThrows(MixedWorkException.class, plan::evidence).variant();
  }
}

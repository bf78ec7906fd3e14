package dev.vyre.observe.telemetry;

import static dev.vyre.observe.telemetry.Snapshots.control;
import static dev.vyre.observe.telemetry.Snapshots.ring;
import static dev.vyre.observe.telemetry.Snapshots.slot;
import static dev.vyre.runtime.wire.SlotLayout.STATUS_CLAIMED;
import static dev.vyre.runtime.wire.SlotLayout.STATUS_DONE;
import static dev.vyre.runtime.wire.SlotLayout.STATUS_EMPTY;
import static dev.vyre.runtime.wire.SlotLayout.STATUS_FAULT;
import static dev.vyre.runtime.wire.SlotLayout.STATUS_PUBLISHED;
import static dev.vyre.runtime.wire.SlotLayout.STATUS_REQUEUE;
import static dev.vyre.runtime.wire.SlotLayout.STATUS_WAIT_IO;
import static dev.vyre.runtime.wire.SlotLayout.STATUS_YIELD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.policy.MegakernelDispatchTopology;
import dev.vyre.policy.MegakernelExecutionMode;
import dev.vyre.policy.MegakernelLaunchGeometry;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelLaunchRecommendation;
import dev.vyre.policy.MegakernelLaunchRequest;
import dev.vyre.policy.MegakernelQueuePressure;
import dev.vyre.policy.PriorityRequeueAccounting;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class RingTelemetryTest {

  private static final int ROUTE = 0xF101;

  // ---------------------------------------------------------------- validation (docs/PORTS.md, "Telemetry decoding")

  @Test
  void shortControlIsRejectedFirstNamingBufferLengthAndFix() {
    PipelineException error = assertThrows(PipelineException.class, () -> RingTelemetry.tryDecode(new byte[636], new byte[65]));
    assertEquals(PipelineException.Variant.Backend, error.variant());
    assertEquals("megakernel control snapshot has 636 bytes, expected at least 640 and 4-byte alignment. "
        + "Fix: capture the full control buffer.", error.fields().get("message"));
    assertTrue(error.display().startsWith("backend error: megakernel control snapshot"));
  }

  @Test
  void misalignedControlIsRejected() {
    PipelineException error = assertThrows(PipelineException.class, () -> RingTelemetry.tryDecode(new byte[642], ring(1)));
    assertTrue(error.getMessage().contains("control snapshot has 642 bytes"));
  }

  @Test
  void ringThatIsNotWholeSlotsIsRejected() {
    PipelineException error = assertThrows(PipelineException.class, () -> RingTelemetry.tryDecode(control(), new byte[65]));
    assertEquals("megakernel ring snapshot has 65 bytes, not a multiple of slot size 64. Fix: capture whole ring slots.",
        error.fields().get("message"));
  }

  @Test
  void strictDecodeLeavesTheOutputUntouchedOnError() {
    byte[] ring = ring(2);
    slot(ring, 0, STATUS_PUBLISHED, ROUTE, 3, 7, 0, 42);
    RingTelemetry out = new RingTelemetry();
    TelemetryDecodeScratch scratch = new TelemetryDecodeScratch();
    RingTelemetry.tryDecodeWithWindowOpcodesInto(control(), ring, new int[] {ROUTE}, out, scratch);
    assertThrows(PipelineException.class,
        () -> RingTelemetry.tryDecodeWithWindowOpcodesInto(control(), new byte[10], new int[0], out, scratch));
    assertThrows(PipelineException.class,
        () -> RingTelemetry.tryDecodeWithWindowOpcodesInto(new byte[4], ring(0), new int[0], out, scratch));
    assertEquals(2, out.slotCount());
    assertEquals(1, out.windows().size());
    assertEquals(1, out.occupancy().published());
  }

  @Test
  void lenientDecodeThrowsVyresPanicTextAroundTheStrictError() {
    PipelineException error = assertThrows(PipelineException.class, () -> RingTelemetry.decode(control(), new byte[65]));
    assertTrue(error.getMessage().startsWith("backend error: megakernel ring telemetry decode failed: backend error: "
        + "megakernel ring snapshot has 65 bytes"), error.getMessage());
    assertTrue(error.getMessage().endsWith("Fix: capture full control and whole ring-slot buffers before telemetry decode."));
    assertTrue(error.getCause() instanceof PipelineException);
  }

  @Test
  void lenientDecodeOfValidBuffersEqualsStrictDecode() {
    byte[] ring = ring(3);
    slot(ring, 1, STATUS_CLAIMED, Opcodes.ATOMIC_ADD, 1, 5, 6, 7);
    assertEquals(RingTelemetry.tryDecode(control(), ring).slots(), RingTelemetry.decode(control(), ring).slots());
  }

  @Test
  void emptyRingDecodesToNoSlots() {
    RingTelemetry telemetry = RingTelemetry.tryDecode(control(), ring(0));
    assertEquals(0, telemetry.slotCount());
    assertEquals(RingOccupancy.EMPTY, telemetry.occupancy());
  }

  // ---------------------------------------------------------------- slots and occupancy

  @Test
  void decodesEverySlotAndCountsEachStatus() {
    byte[] ring = ring(10);
    int[] statuses = {STATUS_EMPTY, STATUS_PUBLISHED, STATUS_CLAIMED, STATUS_DONE, STATUS_WAIT_IO, STATUS_YIELD,
        STATUS_REQUEUE, STATUS_FAULT, 9, -1};
    for (int i = 0; i < statuses.length; i++) {
      slot(ring, i, statuses[i], 0x8000_0000 + i, 20 + i, 100 + i, 200 + i, 300 + i, 400 + i);
    }
    RingTelemetry telemetry = RingTelemetry.tryDecode(control(), ring);
    assertEquals(new RingOccupancy(1, 1, 1, 1, 1, 1, 1, 1, 2), telemetry.occupancy());
    assertEquals(new RingSlotSnapshot(9, RingStatus.of(-1), 29, 0x8000_0009L, 109, 209, 309), telemetry.slot(9));
    assertEquals("Unknown(9)", telemetry.slot(8).status().toString());
    assertEquals(10, telemetry.slots().size());
    assertTrue(telemetry.windows().isEmpty());
  }

  @Test
  void decodeIntoReusesStorageAcrossSnapshots() {
    RingTelemetry out = new RingTelemetry();
    TelemetryDecodeScratch scratch = new TelemetryDecodeScratch();
    byte[] big = ring(8);
    slot(big, 7, STATUS_PUBLISHED, ROUTE, 1, 1, 0);
    RingTelemetry.tryDecodeWithWindowOpcodesInto(control(), big, new int[] {ROUTE, 9}, out, scratch);
    byte[] small = ring(2);
    slot(small, 0, STATUS_DONE, 9, 1, 1, 1);
    RingTelemetry.tryDecodeWithWindowOpcodesInto(control(), small, new int[] {9, ROUTE}, out, scratch);
    assertEquals(2, out.slotCount());
    assertEquals(List.of(new WindowTelemetry(1, 1, 9, 0, 1, 0, 0, 1, 0, 0, 0, 0)), out.windows());
    assertEquals(new RingOccupancy(1, 0, 0, 1, 0, 0, 0, 0, 0), out.occupancy());
  }

  // ---------------------------------------------------------------- route windows (docs/PORTS.md, "Route windows")

  @Test
  void groupsRouteWindowByTicketWithRequiredAndLookaheadSlots() {
    byte[] ring = ring(3);
    slot(ring, 0, STATUS_PUBLISHED, ROUTE, 3, 7, 0, 42);
    slot(ring, 1, STATUS_PUBLISHED, ROUTE, 3, 7, 1, 99);
    slot(ring, 2, STATUS_PUBLISHED, ROUTE, 3, 7, 0, 123);
    RingTelemetry telemetry = RingTelemetry.tryDecodeWithWindowOpcodes(control(), ring, new int[] {ROUTE});
    WindowTelemetry window = new WindowTelemetry(7, 3, ROUTE, 2, 1, 3, 0, 0, 0, 0, 0, 0);
    assertEquals(List.of(window), telemetry.windows());
    assertTrue(window.isActive());
    assertEquals(List.of(window), telemetry.activeWindows());
    assertEquals(3, telemetry.activeSlotsForOpcode(ROUTE).size());
  }

  @Test
  void doneWindowIsPresentButNotActive() {
    byte[] ring = ring(2);
    slot(ring, 0, STATUS_DONE, ROUTE, 3, 7, 0, 42);
    slot(ring, 1, STATUS_DONE, ROUTE, 3, 7, 1, 99);
    RingTelemetry telemetry = RingTelemetry.tryDecodeWithWindowOpcodes(control(), ring, new int[] {ROUTE});
    assertEquals(1, telemetry.windows().size());
    assertFalse(telemetry.windows().get(0).isActive());
    assertTrue(telemetry.activeWindows().isEmpty());
    assertTrue(telemetry.activeSlotsForOpcode(ROUTE).isEmpty());
  }

  @Test
  void twoWindowOpcodesWithOneTicketGiveTwoWindows() {
    byte[] ring = ring(2);
    slot(ring, 0, STATUS_PUBLISHED, 3, 1, 11, 0);
    slot(ring, 1, STATUS_PUBLISHED, 9, 1, 11, 1);
    RingTelemetry telemetry = RingTelemetry.tryDecodeWithWindowOpcodes(control(), ring, new int[] {9, 3});
    assertEquals(List.of(new WindowTelemetry(11, 1, 3, 1, 0, 1, 0, 0, 0, 0, 0, 0),
        new WindowTelemetry(11, 1, 9, 0, 1, 1, 0, 0, 0, 0, 0, 0)), telemetry.windows());
  }

  @Test
  void windowWithOneDoneSlotStaysActiveUntilAllAreDone() {
    byte[] ring = ring(3);
    slot(ring, 0, STATUS_PUBLISHED, ROUTE, 3, 7, 0);
    slot(ring, 1, STATUS_CLAIMED, ROUTE, 3, 7, 0);
    slot(ring, 2, STATUS_DONE, ROUTE, 3, 7, 0);
    assertTrue(RingTelemetry.tryDecodeWithWindowOpcodes(control(), ring, new int[] {ROUTE}).windows().get(0).isActive());
    for (int i = 0; i < 3; i++) {
      slot(ring, i, STATUS_DONE, ROUTE, 3, 7, 0);
    }
    assertFalse(RingTelemetry.tryDecodeWithWindowOpcodes(control(), ring, new int[] {ROUTE}).windows().get(0).isActive());
  }

  @Test
  void windowsAreSortedUnsignedByTicketThenOpcodeAndTakeTheFirstTenant() {
    byte[] ring = ring(5);
    slot(ring, 0, STATUS_PUBLISHED, 9, 4, 0x8000_0000, 2);
    slot(ring, 1, STATUS_FAULT, 9, 5, 5, 0);
    slot(ring, 2, STATUS_PUBLISHED, 3, 6, 5, 0);
    slot(ring, 3, STATUS_REQUEUE, 9, 7, 5, 1);
    slot(ring, 4, 42, 9, 8, 5, 1);
    RingTelemetry telemetry = RingTelemetry.tryDecodeWithWindowOpcodes(control(), ring, new int[] {9, 3, 9});
    assertEquals(List.of(new WindowTelemetry(5, 6, 3, 1, 0, 1, 0, 0, 0, 0, 0, 0),
        new WindowTelemetry(5, 5, 9, 1, 2, 0, 0, 0, 0, 0, 1, 1),
        new WindowTelemetry(0x8000_0000L, 4, 9, 0, 0, 1, 0, 0, 0, 0, 0, 0)), telemetry.windows());
  }

  @Test
  void windowsAreOnlyBuiltForRequestedOpcodes() {
    byte[] ring = ring(2);
    slot(ring, 0, STATUS_PUBLISHED, ROUTE, 3, 7, 0);
    assertTrue(RingTelemetry.tryDecode(control(), ring).windows().isEmpty());
    assertTrue(RingTelemetry.tryDecodeWithWindowOpcodes(control(), ring, new int[] {ROUTE + 1}).windows().isEmpty());
  }

  // ---------------------------------------------------------------- queries

  @Test
  void activeSlotsForOpcodeSkipDoneSlots() {
    byte[] ring = ring(3);
    slot(ring, 0, STATUS_PUBLISHED, 0xBEEF, 1);
    slot(ring, 1, STATUS_PUBLISHED, 0xBEEF, 1);
    slot(ring, 2, STATUS_DONE, 0xBEEF, 1);
    List<RingSlotSnapshot> active = RingTelemetry.tryDecode(control(), ring).activeSlotsForOpcode(0xBEEF);
    assertEquals(List.of(0L, 1L), active.stream().map(RingSlotSnapshot::slotIdx).toList());
  }

  @Test
  void queriesIntoCallerStorageClearItFirst() {
    byte[] ring = ring(2);
    slot(ring, 0, STATUS_WAIT_IO, 0xBEEF, 1, 7, 0);
    slot(ring, 1, STATUS_FAULT, 0xBEEF, 1, 8, 0);
    RingTelemetry telemetry = RingTelemetry.tryDecodeWithWindowOpcodes(control(), ring, new int[] {0xBEEF});
    List<RingSlotSnapshot> slots = new ArrayList<>(List.of(telemetry.slot(1)));
    telemetry.activeSlotsForOpcodeInto(0xBEEF, slots);
    assertEquals(List.of(telemetry.slot(0)), slots);
    List<WindowTelemetry> windows = new ArrayList<>(telemetry.windows());
    telemetry.activeWindowsInto(windows);
    assertEquals(List.of(telemetry.windows().get(0)), windows);
  }

  @Test
  void slotAccessorsCheckTheIndex() {
    RingTelemetry telemetry = RingTelemetry.tryDecode(control(), ring(1));
    assertThrows(IndexOutOfBoundsException.class, () -> telemetry.slot(1));
    assertSame(telemetry.slots(), telemetry.slots());
  }

  // ---------------------------------------------------------------- accounting and launch policy (docs/PORTS.md)

  @Test
  void priorityAccountingCountsRequeueSlots() {
    byte[] ring = ring(6);
    for (int i = 0; i < 4; i++) {
      slot(ring, i, STATUS_REQUEUE, Opcodes.NOP, 0);
    }
    PriorityRequeueAccounting accounting = RingTelemetry.tryDecode(control(), ring).priorityAccounting();
    assertEquals(4, accounting.requeueCount());
    assertEquals(0, accounting.agedPromotions());
    assertEquals(0, accounting.maxPriorityAge());
  }

  private static byte[] controlWithHotMetrics(int count) {
    byte[] control = control();
    for (int opcode = 0; opcode < count; opcode++) {
      Snapshots.setWord(control, ControlLayout.metricWord(opcode), opcode + 1);
    }
    return control;
  }

  @Test
  void telemetryDrivenLaunchT1() {
    byte[] ring = ring(4);
    slot(ring, 0, STATUS_REQUEUE, Opcodes.NOP, 0);
    MegakernelLaunchRecommendation r = RingTelemetry.tryDecode(controlWithHotMetrics(8), ring)
        .recommendLaunch(MegakernelLaunchRequest.direct(4096, 64, 256));
    assertEquals(new MegakernelLaunchGeometry(64, 4096, 64), r.geometry());
    assertEquals(64, r.workerGroups());
    assertEquals(8192, r.hitCapacity());
    assertEquals(MegakernelQueuePressure.Saturated, r.pressure());
    assertEquals(MegakernelExecutionMode.Jit, r.executionMode());
    assertEquals(MegakernelDispatchTopology.HybridFrontier, r.topology());
    assertTrue(r.promoteHotOpcodes());
    assertFalse(r.promoteHotWindows());
    assertTrue(r.agePriorityWork());
    assertEquals(131_072, r.estimatedPeakDeviceBytes());
  }

  @Test
  void telemetryDrivenLaunchT2() {
    byte[] ring = ring(8);
    for (int i = 0; i < 4; i++) {
      slot(ring, i, STATUS_PUBLISHED, Opcodes.NOP, 0);
    }
    MegakernelLaunchRecommendation r = RingTelemetry.tryDecode(control(), ring)
        .recommendLaunch(MegakernelLaunchRequest.direct(8, 64, 256));
    assertEquals(MegakernelDispatchTopology.DenseFrontier, r.topology());
    assertEquals(64, r.geometry().workgroupSizeX());
    assertEquals(64, r.geometry().slotCount());
    assertEquals(1024, r.hitCapacity());
    assertEquals(MegakernelQueuePressure.Light, r.pressure());
    assertEquals(MegakernelExecutionMode.Interpreter, r.executionMode());
    assertEquals(16_384, r.estimatedPeakDeviceBytes());
  }

  @Test
  void hotMetricsAndRequeuePromoteAndAge() {
    byte[] ring = ring(2);
    slot(ring, 0, STATUS_REQUEUE, Opcodes.NOP, 0);
    slot(ring, 1, STATUS_YIELD, Opcodes.NOP, 0);
    MegakernelLaunchRecommendation r = RingTelemetry.tryDecode(controlWithHotMetrics(8), ring)
        .recommendLaunch(MegakernelLaunchRequest.direct(4096, 64, 256));
    assertEquals(MegakernelExecutionMode.Jit, r.executionMode());
    assertTrue(r.promoteHotOpcodes());
    assertTrue(r.agePriorityWork());
  }

  @Test
  void hotCountsAreOverwrittenFromTelemetryAndCallerGraphSignalsKept() {
    byte[] ring = ring(8);
    for (int i = 0; i < 4; i++) {
      slot(ring, i, STATUS_DONE, ROUTE, 0, 7, i % 2);
    }
    for (int i = 4; i < 7; i++) {
      slot(ring, i, STATUS_DONE, ROUTE, 0, 8, 0);
    }
    RingTelemetry telemetry = RingTelemetry.tryDecodeWithWindowOpcodes(control(), ring, new int[] {ROUTE});
    MegakernelLaunchRequest request = MegakernelLaunchRequest.directBuilder(1024, 64, 256).hotOpcodeCount(99)
        .hotWindowCount(99).graphNodeCount(100_000).graphEdgeCount(250_000).frontierDensityBps(625).build();
    MegakernelLaunchRecommendation fromTelemetry = telemetry.recommendLaunch(request);
    MegakernelLaunchRecommendation expected = MegakernelLaunchPolicy.standard()
        .recommend(request.toBuilder().hotOpcodeCount(0).hotWindowCount(1).build());
    assertEquals(expected, fromTelemetry);
    assertFalse(fromTelemetry.promoteHotWindows());
    assertEquals(MegakernelDispatchTopology.HybridFrontier, fromTelemetry.topology());
  }

  @Test
  void requeueOverflowIsABackendError() {
    byte[] ring = ring(1);
    slot(ring, 0, STATUS_REQUEUE, Opcodes.NOP, 0);
    MegakernelLaunchRequest request = MegakernelLaunchRequest.directBuilder(8, 64, 256).requeueCount(-1L).build();
    BackendException error = assertThrows(BackendException.class, () -> RingTelemetry.tryDecode(control(), ring).recommendLaunch(request));
    assertEquals(BackendException.Variant.Other, error.variant());
    assertEquals("megakernel requeue count overflowed u64. Fix: shard telemetry windows before launch recommendation.",
        error.fields().get("message"));
  }

  @Test
  void policyErrorsPassThrough() {
    BackendException error = assertThrows(BackendException.class,
        () -> RingTelemetry.tryDecode(control(), ring(1)).recommendLaunch(MegakernelLaunchRequest.direct(10, 64, 0)));
    assertTrue(error.getMessage().startsWith("megakernel max_workgroup_size_x must be non-zero."));
  }

  // ---------------------------------------------------------------- fuzzing

  /** Random control/ring lengths at random offsets and random words: only typed errors, and a valid decode matches a naive model. */
  @Property(tries = 400)
  void decodingArbitraryBuffersThrowsOnlyTypedErrors(@ForAll("controlLengths") int controlLength,
      @ForAll("ringLengths") int ringLength, @ForAll @IntRange(min = 0, max = 7) int offset,
      @ForAll("words") int[] words, @ForAll("opcodeSets") int[] windowOpcodes) {
    byte[] backing = new byte[offset + controlLength + ringLength];
    MemorySegment all = MemorySegment.ofArray(backing);
    for (int i = 0; i + 4 <= ringLength; i += 4) {
      all.asSlice(offset + controlLength + i, 4).set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, 0, words[(i / 4) % words.length]);
    }
    MemorySegment control = all.asSlice(offset, controlLength);
    MemorySegment ringSegment = all.asSlice(offset + controlLength, ringLength);
    RingTelemetry out = new RingTelemetry();
    boolean valid = controlLength >= 640 && controlLength % 4 == 0 && ringLength % 64 == 0;
    try {
      RingTelemetry.tryDecodeWithWindowOpcodesInto(control, ringSegment, windowOpcodes, out, new TelemetryDecodeScratch());
    } catch (PipelineException e) {
      assertFalse(valid, e.getMessage());
      assertTrue(e.getMessage().contains(" bytes") && e.getMessage().contains("Fix: "), e.getMessage());
      return;
    }
    assertTrue(valid);
    assertEquals(ringLength / 64, out.slotCount());
    assertEquals(out.slotCount(), out.occupancy().totalSlots());
    assertEquals(naiveWindows(ringSegment, windowOpcodes), out.windows());
    RingTelemetry copy = RingTelemetry.tryDecodeWithWindowOpcodes(control.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
        ringSegment.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), windowOpcodes);
    assertEquals(out.slots(), copy.slots());
    assertEquals(out.runtimeCounters(), copy.runtimeCounters());
  }

  @Property(tries = 200)
  void lenientDecodersThrowOnlyTypedErrors(@ForAll @Size(max = 800) byte[] control, @ForAll @Size(max = 300) byte[] ring) {
    try {
      RingTelemetry.decode(control, ring);
    } catch (PipelineException expected) {
      assertTrue(expected.getMessage().contains("Fix: "));
    }
  }

  @Provide
  Arbitrary<Integer> controlLengths() {
    return Arbitraries.oneOf(Arbitraries.of(640, 644, 680), Arbitraries.integers().between(0, 700));
  }

  @Provide
  Arbitrary<Integer> ringLengths() {
    return Arbitraries.oneOf(Arbitraries.integers().between(0, 24).map(slots -> slots * 64),
        Arbitraries.integers().between(0, 1600));
  }

  @Provide
  Arbitrary<int[]> words() {
    // Mostly small words so statuses, class tags and tickets collide; some arbitrary ones.
    Arbitrary<Integer> word = Arbitraries.oneOf(Arbitraries.integers().between(0, 9), Arbitraries.integers());
    return word.array(int[].class).ofMinSize(1).ofMaxSize(64);
  }

  @Provide
  Arbitrary<int[]> opcodeSets() {
    Arbitrary<Integer> opcode = Arbitraries.oneOf(Arbitraries.integers().between(0, 9), Arbitraries.integers().between(120, 140),
        Arbitraries.integers());
    return opcode.array(int[].class).ofMaxSize(12);
  }

  /** Route windows computed the obvious way: a set, a sorted map, slot by slot. */
  private static List<WindowTelemetry> naiveWindows(MemorySegment ring, int[] windowOpcodes) {
    Set<Long> opcodes = new HashSet<>();
    Arrays.stream(windowOpcodes).forEach(op -> opcodes.add(Integer.toUnsignedLong(op)));
    Map<List<Long>, long[]> windows = new TreeMap<>((a, b) -> a.get(0).equals(b.get(0))
        ? Long.compare(a.get(1), b.get(1)) : Long.compare(a.get(0), b.get(0)));
    for (int s = 0; s < ring.byteSize() / SlotLayout.SLOT_BYTES; s++) {
      long base = s * 64L;
      long status = u32(ring, base);
      long opcode = u32(ring, base + 4);
      if (!opcodes.contains(opcode)) {
        continue;
      }
      long[] w = windows.computeIfAbsent(List.of(u32(ring, base + 16), opcode), k -> {
        long[] fresh = new long[10];
        fresh[0] = u32(ring, base + 8);
        return fresh;
      });
      long tag = u32(ring, base + 20);
      if (tag == 0) {
        w[1]++;
      } else if (tag == 1) {
        w[2]++;
      }
      if (status >= 1 && status <= 7) {
        w[2 + (int) status]++;
      }
    }
    List<WindowTelemetry> out = new ArrayList<>();
    windows.forEach((k, w) -> out.add(new WindowTelemetry(k.get(0), w[0], k.get(1), w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9])));
    return out;
  }

  private static long u32(MemorySegment segment, long offset) {
    return Integer.toUnsignedLong(segment.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, offset));
  }
}

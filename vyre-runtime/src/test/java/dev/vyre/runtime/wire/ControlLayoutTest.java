package dev.vyre.runtime.wire;

import static dev.vyre.runtime.wire.Wire.seg;
import static dev.vyre.runtime.wire.Wire.setWord;
import static dev.vyre.runtime.wire.Wire.word;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The control block (docs/PROTOCOL.md, "Control block"), the priority constants (docs/PROTOCOL.md, "Priority levels") and
 * the default priority offsets (docs/PORTS.md, "Priority partitions and scan").
 */
class ControlLayoutTest {

  @Test
  void wordIndicesAreVyres() {
    assertEquals(0, ControlLayout.SHUTDOWN);
    assertEquals(1, ControlLayout.DONE_COUNT);
    assertEquals(2, ControlLayout.TENANT_BASE);
    assertEquals(32, ControlLayout.TENANT_QUOTA_BASE);
    assertEquals(64, ControlLayout.TENANT_FAIRNESS_BASE);
    assertEquals(32, ControlLayout.TENANT_FAIRNESS_SLOTS);
    assertEquals(96, ControlLayout.METRICS_BASE);
    assertEquals(32, ControlLayout.METRICS_SLOTS);
    assertEquals(128, ControlLayout.EPOCH);
    assertEquals(129, ControlLayout.PRIORITY_OFFSETS_BASE);
    assertEquals(6, ControlLayout.PRIORITY_OFFSETS_SLOTS);
    assertEquals(135, ControlLayout.PRIORITY_STARVATION_COUNTER);
    assertEquals(136, ControlLayout.PRIORITY_FAIRNESS_BASE);
    assertEquals(5, ControlLayout.PRIORITY_FAIRNESS_SLOTS);
    assertEquals(160, ControlLayout.CONTROL_MIN_WORDS);
    assertEquals(160, ControlLayout.OBSERVABLE_BASE);
    assertEquals(5, ControlLayout.PRIORITY_LEVELS);
    assertEquals(16, ControlLayout.STARVATION_THRESHOLD);
    assertEquals(64, ControlLayout.TENANT_FAIRNESS_THRESHOLD);
    assertTrue(ControlLayout.METRICS_BASE + ControlLayout.METRICS_SLOTS <= ControlLayout.EPOCH);
  }

  @Test
  void ourReservedWordsStayBetween141And159() {
    int[] ours = {ControlLayout.publishSeqWord(0), ControlLayout.publishSeqWord(4), ControlLayout.claimSeqWord(0),
        ControlLayout.claimSeqWord(4) + 1, ControlLayout.FAULT_COUNT, ControlLayout.HEARTBEAT, ControlLayout.KERNEL_STATE,
        ControlLayout.CONTINUATION_COUNT};
    for (int w : ours) {
      assertTrue(w >= 141 && w <= 159, Integer.toString(w));
    }
    assertEquals(0, ControlLayout.claimSeqWord(0) % 2, "claim cursors are u64 pairs at even words");
  }

  @Test
  void readQuotasTakeVyresQuotaTableAndItsUnusedEntryCountsRefusals() {
    assertEquals(ControlLayout.TENANT_QUOTA_BASE + 28, ControlLayout.tenantQuotaWord(ControlLayout.MAX_TENANTS - 1));
    assertEquals(61, ControlLayout.TENANT_QUOTA_REFUSALS, "the entry of id 29, which no tenant has");
    assertTrue(ControlLayout.TENANT_QUOTA_REFUSALS < ControlLayout.TENANT_FAIRNESS_BASE);
    assertEquals(4096, ControlLayout.readQuotaWord(4096));
    assertEquals(0xFFFF_FFFE, ControlLayout.readQuotaWord(0xFFFF_FFFEL));
    assertEquals(ControlLayout.NO_READ_QUOTA, ControlLayout.readQuotaWord(0xFFFF_FFFFL));
    assertEquals(ControlLayout.NO_READ_QUOTA, ControlLayout.readQuotaWord(-1L), "u64::MAX, an unbounded staging quota");
    MemorySegment control = MemorySegment.ofArray(ControlLayout.encode(false, 29, 0));
    assertEquals(ControlLayout.TENANT_QUOTA, Words.get(control, ControlLayout.tenantQuotaWord(0)), "vyre's encoder is kept");
    ControlLayout.clearReadQuotas(control);
    for (int t = 0; t < ControlLayout.MAX_TENANTS; t++) {
      assertEquals(ControlLayout.NO_READ_QUOTA, Words.get(control, ControlLayout.tenantQuotaWord(t)));
    }
    assertEquals(0, Words.get(control, ControlLayout.TENANT_QUOTA_REFUSALS));
  }

  @Test
  void byteLengthIsFourTimesOneHundredSixtyPlusObservables() {
    assertEquals(640, ControlLayout.byteLength(0));
    assertEquals(644, ControlLayout.byteLength(1));
    assertEquals(0xFFFF_FFFFL - 160, ControlLayout.MAX_OBSERVABLE_SLOTS);
    assertEquals(4 * 0xFFFF_FFFFL, ControlLayout.byteLength(ControlLayout.MAX_OBSERVABLE_SLOTS));
    assertEquals(-1, ControlLayout.byteLength(ControlLayout.MAX_OBSERVABLE_SLOTS + 1));
    assertEquals(-1, ControlLayout.byteLength(-1));
  }

  @Test
  void encodeWritesShutdownTenantPointerMasksAndQuotas() {
    byte[] control = ControlLayout.encode(true, 2, 4);
    assertEquals(656, control.length);
    assertEquals(1, word(control, 0));
    assertEquals(0, word(control, 1));
    assertEquals(3, word(control, 2));
    assertEquals(-1, word(control, 3));
    assertEquals(-1, word(control, 4));
    assertEquals(0, word(control, 5));
    assertEquals(1_000_000, word(control, 32));
    assertEquals(1_000_000, word(control, 33));
    assertEquals(0, word(control, 34));
    for (int w = 64; w < 164; w++) {
      assertEquals(0, word(control, w), "word " + w + " starts cold");
    }
    assertEquals(0, word(ControlLayout.encode(false, 2, 0), 0));
  }

  @Test
  void tenantCountOfOneAuthorizesOnlyTenantZero() {
    byte[] control = ControlLayout.encode(false, 1, 0);
    assertEquals(-1, word(control, ControlLayout.tenantMaskWord(0)));
    assertEquals(0, word(control, ControlLayout.tenantMaskWord(1)));
  }

  @Test
  void tenantCountIsClampedByTheTableEnds() {
    byte[] control = ControlLayout.encode(false, 0xFFFF_FFFFL, 0);
    assertEquals(640, control.length);
    for (int t = 0; t < 29; t++) {
      assertEquals(-1, word(control, 3 + t));
    }
    for (int w = 32; w < 64; w++) {
      assertEquals(1_000_000, word(control, w));
    }
    for (int w = 64; w < 160; w++) {
      assertEquals(0, word(control, w));
    }
    byte[] forty = ControlLayout.encode(false, 40, 0);
    assertArrayEquals(Arrays.copyOfRange(control, 0, 32 * 4 + 40 * 4), Arrays.copyOfRange(forty, 0, 32 * 4 + 40 * 4));
    assertEquals(0, word(forty, 32 + 40));
  }

  @Test
  void encodeRefusesMoreObservablesThanTheAllocationCap() {
    assertEquals(4L * (160 + 1_048_576), ControlLayout.encode(false, 1, ControlLayout.MAX_ENCODED_OBSERVABLE_SLOTS).length);
    PipelineException e = assertThrows(PipelineException.class, () -> ControlLayout.encode(false, 1, 1_048_577));
    assertEquals(PipelineException.Variant.InvalidArgument, e.variant());
    assertTrue(e.getMessage().contains("observable"), e.getMessage());
  }

  @Test
  void encodeIntoADirtyBufferIsByteIdenticalToEncode() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment control = arena.allocate(ControlLayout.byteLength(8), 64);
      control.fill((byte) 0xAA);
      ControlLayout.encodeInto(control, false, 2);
      assertArrayEquals(ControlLayout.encode(false, 2, 8), Words.toBytes(control));
    }
    byte[] heap = new byte[644];
    Arrays.fill(heap, (byte) 0x55);
    ControlLayout.encodeInto(seg(heap), true, 29);
    assertArrayEquals(ControlLayout.encode(true, 29, 1), heap);
  }

  @Test
  void encodeIntoRefusesAShortOrMisalignedBuffer() {
    for (int len : new int[] {0, 636, 641}) {
      byte[] control = new byte[len];
      Arrays.fill(control, (byte) 1);
      assertThrows(PipelineException.class, () -> ControlLayout.encodeInto(seg(control), false, 1));
      byte[] expected = new byte[len];
      Arrays.fill(expected, (byte) 1);
      assertArrayEquals(expected, control, "nothing is written");
    }
  }

  @Test
  void strictObservableNeedsTheWordToExist() {
    ProtocolException e = assertThrows(ProtocolException.class, () -> ControlLayout.tryReadObservable(seg(new byte[640]), 0));
    assertEquals(ProtocolException.Variant.MissingWord, e.variant());
    assertEquals(160L, e.fields().get("word_idx"));
    byte[] control = new byte[644];
    setWord(control, 160, 0xFFFF_FFFE);
    assertEquals(0xFFFF_FFFEL, ControlLayout.tryReadObservable(seg(control), 0));
    assertEquals(0xFFFF_FFFEL, ControlLayout.readObservable(seg(control), 0));
    assertEquals(0, ControlLayout.readObservable(seg(new byte[640]), 0));
  }

  @Test
  void strictObservableRefusesAnIndexPastTheU32WordOffset() {
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> ControlLayout.tryReadObservable(seg(new byte[644]), ControlLayout.MAX_OBSERVABLE_SLOTS + 1));
    assertEquals(ProtocolException.Variant.ByteLengthOverflow, e.variant());
    assertThrows(ProtocolException.class, () -> ControlLayout.tryReadObservable(seg(new byte[644]), Long.MAX_VALUE));
    assertEquals(0, ControlLayout.readObservable(seg(new byte[644]), Long.MAX_VALUE));
  }

  @Test
  void strictCountersFailOnATruncatedBufferWhereLenientOnesReadZero() {
    byte[] shortOne = new byte[4];
    for (ProtocolException e : List.of(assertThrows(ProtocolException.class, () -> ControlLayout.tryReadEpoch(seg(shortOne))),
        assertThrows(ProtocolException.class, () -> ControlLayout.tryReadDoneCount(seg(shortOne))),
        assertThrows(ProtocolException.class, () -> ControlLayout.tryReadObservable(seg(shortOne), 0)))) {
      assertEquals(ProtocolException.Variant.MissingWord, e.variant());
      assertTrue(e.getMessage().contains("control"), e.getMessage());
      assertTrue(e.getMessage().contains("Fix: "), e.getMessage());
    }
    assertEquals(0, ControlLayout.readEpoch(seg(shortOne)));
    assertEquals(0, ControlLayout.readDoneCount(seg(shortOne)));
    assertEquals(0, ControlLayout.readObservable(seg(shortOne), 0));
  }

  @Test
  void strictCountersParseAWellFormedControl() {
    byte[] control = ControlLayout.encode(false, 1, 0);
    assertEquals(0, ControlLayout.tryReadEpoch(seg(control)));
    assertEquals(0, ControlLayout.tryReadDoneCount(seg(control)));
    setWord(control, ControlLayout.EPOCH, 42);
    setWord(control, ControlLayout.DONE_COUNT, -1);
    assertEquals(42, ControlLayout.tryReadEpoch(seg(control)));
    assertEquals(0xFFFF_FFFFL, ControlLayout.tryReadDoneCount(seg(control)));
    assertEquals(0xFFFF_FFFFL, ControlLayout.readDoneCount(seg(control)));
  }

  @Test
  void misalignedControlIsMisalignedByteLength() {
    byte[] control = Arrays.copyOf(ControlLayout.encode(false, 1, 0), 641);
    ProtocolException e = assertThrows(ProtocolException.class, () -> ControlLayout.tryReadEpoch(seg(control)));
    assertEquals(ProtocolException.Variant.MisalignedByteLength, e.variant());
    assertEquals(641L, e.fields().get("byte_len"));
    assertEquals(0, ControlLayout.readEpoch(seg(control)));
  }

  @Test
  void strictMetricsNeedTheWholeWindow() {
    assertThrows(ProtocolException.class, () -> ControlLayout.tryReadMetrics(seg(new byte[384])));
    byte[] control = new byte[512];
    setWord(control, 101, 42);
    List<long[]> metrics = ControlLayout.tryReadMetrics(seg(control));
    assertEquals(1, metrics.size());
    assertArrayEquals(new long[] {5, 42}, metrics.get(0));
    assertThrows(ProtocolException.class, () -> ControlLayout.tryReadMetrics(seg(new byte[513])));
  }

  @Test
  void lenientMetricsDecodeWhateverPrefixExists() {
    assertTrue(ControlLayout.readMetrics(seg(new byte[0])).isEmpty());
    assertTrue(ControlLayout.readMetrics(seg(ControlLayout.encode(false, 1, 4))).isEmpty());
    byte[] control = new byte[4 * 98 + 2];
    setWord(control, 96, 9);
    setWord(control, 97, -1);
    List<long[]> metrics = ControlLayout.readMetrics(seg(control));
    assertEquals(2, metrics.size());
    assertArrayEquals(new long[] {0, 9}, metrics.get(0));
    assertArrayEquals(new long[] {1, 0xFFFF_FFFFL}, metrics.get(1));
  }

  @Test
  void defaultPriorityOffsetsGiveTheRemainderToNormal() {
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, ControlLayout.defaultPriorityOffsets(5));
    assertArrayEquals(new int[] {0, 2, 4, 6, 8, 10}, ControlLayout.defaultPriorityOffsets(10));
    assertArrayEquals(new int[] {0, 8, 16, 24, 32, 40}, ControlLayout.defaultPriorityOffsets(40));
    assertArrayEquals(new int[] {0, 51, 102, 154, 205, 256}, ControlLayout.defaultPriorityOffsets(256));
    assertArrayEquals(new int[] {0, 204, 408, 616, 820, 1024}, ControlLayout.defaultPriorityOffsets(1024));
    assertArrayEquals(new int[] {0, 0, 0, 3, 3, 3}, ControlLayout.defaultPriorityOffsets(3));
  }

  @Test
  void writePriorityOffsetsTouchesOnlyWords129To134() {
    byte[] control = ControlLayout.encode(false, 1, 0);
    setWord(control, ControlLayout.DONE_COUNT, 7);
    setWord(control, ControlLayout.EPOCH, 9);
    byte[] before = control.clone();
    ControlLayout.writePriorityOffsets(seg(control), ControlLayout.defaultPriorityOffsets(10));
    for (int w = 0; w < 160; w++) {
      int expected = w >= 129 && w <= 134 ? 2 * (w - 129) : word(before, w);
      assertEquals(expected, word(control, w), "word " + w);
    }
    assertEquals(7, ControlLayout.readDoneCount(seg(control)));
    assertEquals(9, ControlLayout.readEpoch(seg(control)));
  }

  @Test
  void writePriorityOffsetsRefusesAShortOrMisalignedBufferAndAWrongCount() {
    assertThrows(PipelineException.class, () -> ControlLayout.writePriorityOffsets(seg(new byte[4 * 134]), new int[6]));
    assertThrows(PipelineException.class, () -> ControlLayout.writePriorityOffsets(seg(new byte[642]), new int[6]));
    assertThrows(PipelineException.class, () -> ControlLayout.writePriorityOffsets(seg(new byte[640]), new int[5]));
    ControlLayout.writePriorityOffsets(seg(new byte[4 * 135]), new int[6]);
  }

  @Test
  void checkTenantAllowsZeroTo28() {
    ControlLayout.checkTenant(0);
    ControlLayout.checkTenant(28);
    for (int tenant : new int[] {29, -1, 157}) {
      PipelineException e = assertThrows(PipelineException.class, () -> ControlLayout.checkTenant(tenant));
      assertEquals(PipelineException.Variant.InvalidArgument, e.variant());
      assertEquals("tenant", e.fields().get("subject"));
    }
  }

  @Provide
  Arbitrary<byte[]> controls() {
    Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(700);
    Arbitrary<byte[]> sized = Arbitraries.integers().between(0, 170).flatMap(words -> Arbitraries.bytes().array(byte[].class)
        .ofSize(words * 4 + (words % 7 == 0 ? 1 : 0)));
    return Arbitraries.oneOf(random, sized);
  }

  @Property(tries = 400)
  void readersOnlyThrowTypedErrors(@ForAll("controls") byte[] bytes, @ForAll long index) {
    try (Arena arena = Arena.ofConfined()) {
      for (MemorySegment control : List.of(seg(bytes), Wire.nativeCopy(arena, bytes))) {
        Wire.onlyTyped(() -> ControlLayout.tryReadDoneCount(control));
        Wire.onlyTyped(() -> ControlLayout.tryReadEpoch(control));
        Wire.onlyTyped(() -> ControlLayout.tryReadMetrics(control));
        Wire.onlyTyped(() -> ControlLayout.tryReadObservable(control, index));
        Wire.onlyTyped(() -> ControlLayout.tryReadObservable(control, index & 0xFF));
        Wire.onlyTyped(() -> ControlLayout.tryReadWord(control, index));
        ControlLayout.readDoneCount(control);
        ControlLayout.readEpoch(control);
        ControlLayout.readMetrics(control);
        ControlLayout.readObservable(control, index);
        ControlLayout.readWord(control, index);
        ControlLayout.observableCount(control);
      }
    }
  }

  @Property(tries = 200)
  void encodersOnlyThrowTypedErrors(@ForAll("controls") byte[] bytes, @ForAll boolean shutdown, @ForAll long tenants,
      @ForAll int observables, @ForAll int totalSlots) {
    Wire.onlyTyped(() -> ControlLayout.encode(shutdown, tenants,
        observables < 0 || observables > ControlLayout.MAX_ENCODED_OBSERVABLE_SLOTS ? observables : observables % 4096));
    Wire.onlyTyped(() -> ControlLayout.encodeInto(seg(bytes), shutdown, tenants));
    Wire.onlyTyped(() -> ControlLayout.writePriorityOffsets(seg(bytes), ControlLayout.defaultPriorityOffsets(totalSlots)));
  }
}

package dev.vyre.runtime.wire;

import static dev.vyre.runtime.wire.Wire.seg;
import static dev.vyre.runtime.wire.Wire.setWord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.DebugLogLayout.DebugRecord;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The PRINTF debug log (docs/PROTOCOL.md, "The PRINTF debug log"). */
class DebugLogLayoutTest {

  @Test
  void runtimeLogIs257WordsOf64Records() {
    assertEquals(0, DebugLogLayout.CURSOR_WORD);
    assertEquals(1, DebugLogLayout.RECORDS_BASE);
    assertEquals(4, DebugLogLayout.RECORD_WORDS);
    assertEquals(64, DebugLogLayout.RECORD_CAPACITY);
    assertEquals(257, DebugLogLayout.BUFFER_WORDS);
    assertEquals(1028, DebugLogLayout.BUFFER_BYTES);
    assertEquals(1028, DebugLogLayout.byteLength(64));
  }

  @Test
  void byteLengthIsOnePlusFourWordsPerRecord() {
    assertEquals(4, DebugLogLayout.byteLength(0));
    assertEquals(52, DebugLogLayout.byteLength(3));
    long max = (1L << 32) / 4 - 1;
    assertEquals((1 + 4 * max) * 4, DebugLogLayout.byteLength(max));
    assertEquals(-1, DebugLogLayout.byteLength(max + 1));
    assertEquals(-1, DebugLogLayout.byteLength(-1));
  }

  @Test
  void emptyLogIsAllZeroAndDecodesToNothing() {
    byte[] log = DebugLogLayout.encodeEmpty(64);
    assertEquals(1028, log.length);
    for (byte b : log) {
      assertEquals(0, b);
    }
    assertTrue(DebugLogLayout.tryRead(seg(log)).isEmpty());
    assertTrue(DebugLogLayout.read(seg(DebugLogLayout.encodeEmpty(32))).isEmpty());
  }

  @Test
  void encodeEmptyRefusesMoreThanTheAllocationCap() {
    assertEquals(DebugLogLayout.byteLength(1_048_576), DebugLogLayout.encodeEmpty(DebugLogLayout.MAX_ENCODED_RECORDS).length);
    PipelineException e = assertThrows(PipelineException.class, () -> DebugLogLayout.encodeEmpty(1_048_577));
    assertEquals(PipelineException.Variant.InvalidArgument, e.variant());
    assertTrue(e.getMessage().contains("debug"), e.getMessage());
    assertThrows(PipelineException.class, () -> DebugLogLayout.encodeEmpty(-1));
  }

  @Test
  void decodesTheRecordsBelowTheCursor() {
    byte[] log = DebugLogLayout.encodeEmpty(3);
    setWord(log, 0, 8);
    int[] words = {11, 12, 13, 14, 21, 22, 23, 24};
    for (int i = 0; i < words.length; i++) {
      setWord(log, 1 + i, words[i]);
    }
    setWord(log, 9, 99);
    assertEquals(List.of(new DebugRecord(11, 12, 13, 14), new DebugRecord(21, 22, 23, 24)), DebugLogLayout.tryRead(seg(log)));
  }

  @Test
  void zeroByteLogIsAnErrorAndACapacityZeroLogIsEmpty() {
    ProtocolException e = assertThrows(ProtocolException.class, () -> DebugLogLayout.tryRead(seg(new byte[0])));
    assertEquals(ProtocolException.Variant.MissingWord, e.variant());
    assertEquals(0L, e.fields().get("word_idx"));
    assertTrue(DebugLogLayout.tryRead(seg(new byte[4])).isEmpty());
  }

  @Test
  void misalignedLogIsMisalignedByteLength() {
    ProtocolException e = assertThrows(ProtocolException.class, () -> DebugLogLayout.tryRead(seg(new byte[1029])));
    assertEquals(ProtocolException.Variant.MisalignedByteLength, e.variant());
    assertEquals("debug_log", e.fields().get("buffer"));
  }

  @Test
  void cursorPastTheCapacityOrInsideARecordIsAnError() {
    byte[] log = DebugLogLayout.encodeEmpty(3);
    setWord(log, 0, 16);
    ProtocolException past = assertThrows(ProtocolException.class, () -> DebugLogLayout.tryRead(seg(log)));
    assertEquals(ProtocolException.Variant.MissingWord, past.variant());
    assertEquals(17L, past.fields().get("word_idx"));
    setWord(log, 0, 6);
    ProtocolException partial = assertThrows(ProtocolException.class, () -> DebugLogLayout.tryRead(seg(log)));
    assertEquals(7L, partial.fields().get("word_idx"));
    setWord(log, 0, -4);
    assertThrows(ProtocolException.class, () -> DebugLogLayout.tryRead(seg(log)));
  }

  @Test
  void moreThan64PrintfsLeaveACursorTheStrictDecoderRefuses() {
    byte[] log = DebugLogLayout.encodeEmpty(64);
    setWord(log, 0, 256);
    assertEquals(64, DebugLogLayout.tryRead(seg(log)).size());
    setWord(log, 0, 260);
    assertThrows(ProtocolException.class, () -> DebugLogLayout.tryRead(seg(log)));
  }

  @Test
  void aFullLiveLogReadsItsKeptRecordsAndCountsTheRest() {
    byte[] log = DebugLogLayout.encodeEmpty(3);
    for (int w = 1; w <= 12; w++) {
      setWord(log, w, 100 + w);
    }
    setWord(log, 0, 8);
    assertEquals(new DebugLogLayout.Contents(List.of(new DebugRecord(101, 102, 103, 104), new DebugRecord(105, 106, 107, 108)), 0),
        DebugLogLayout.readKept(seg(log)));
    setWord(log, 0, 4 * 70);
    DebugLogLayout.Contents full = DebugLogLayout.readKept(seg(log));
    assertEquals(3, full.records().size());
    assertEquals(new DebugRecord(109, 110, 111, 112), full.records().get(2));
    assertEquals(67, full.dropped());
    // The cursor is a u32: its top value still counts as reserved words, not a negative number.
    setWord(log, 0, -4);
    assertEquals((1L << 30) - 1 - 3, DebugLogLayout.readKept(seg(log)).dropped());
    setWord(log, 0, 6);
    ProtocolException partial = assertThrows(ProtocolException.class, () -> DebugLogLayout.readKept(seg(log)));
    assertEquals(7L, partial.fields().get("word_idx"));
    assertEquals(ProtocolException.Variant.MisalignedByteLength, assertThrows(ProtocolException.class, () -> DebugLogLayout.readKept(seg(new byte[7]))).variant());
    assertEquals(new DebugLogLayout.Contents(List.of(), 0), DebugLogLayout.readKept(seg(new byte[4])));
  }

  @Test
  void lenientReaderRefusesMalformedInputLoudly() {
    assertThrows(ProtocolException.class, () -> DebugLogLayout.read(seg(new byte[3])));
  }

  @Provide
  Arbitrary<byte[]> logs() {
    Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(1100);
    Arbitrary<byte[]> withSmallCursor = Arbitraries.integers().between(0, 70).flatMap(records ->
        Arbitraries.integers().between(0, 4 * records + 8).flatMap(cursor -> Arbitraries.bytes().array(byte[].class)
            .ofSize((1 + 4 * records) * 4).map(bytes -> {
              setWord(bytes, 0, cursor);
              return bytes;
            })));
    return Arbitraries.oneOf(random, withSmallCursor);
  }

  @Property(tries = 500)
  void decoderOnlyThrowsTypedErrors(@ForAll("logs") byte[] bytes) {
    try (Arena arena = Arena.ofConfined()) {
      for (MemorySegment log : List.of(seg(bytes), Wire.nativeCopy(arena, bytes))) {
        Wire.onlyTyped(() -> DebugLogLayout.tryRead(log));
        Wire.onlyTyped(() -> DebugLogLayout.read(log));
        Wire.onlyTyped(() -> DebugLogLayout.readKept(log));
      }
    }
  }

  @Property(tries = 200)
  void aValidCursorDecodesOneRecordPerFourWords(@ForAll @IntRange(max = 64) int records, @ForAll @IntRange(max = 64) int extra) {
    byte[] log = DebugLogLayout.encodeEmpty(records + extra);
    setWord(log, 0, 4 * records);
    for (int w = 1; w <= 4 * records; w++) {
      setWord(log, w, w);
    }
    List<DebugRecord> decoded = DebugLogLayout.tryRead(seg(log));
    assertEquals(records, decoded.size());
    for (int i = 0; i < records; i++) {
      assertEquals(new DebugRecord(1 + 4 * i, 2 + 4 * i, 3 + 4 * i, 4 + 4 * i), decoded.get(i));
    }
  }
}

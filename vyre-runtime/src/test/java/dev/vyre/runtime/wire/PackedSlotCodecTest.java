package dev.vyre.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.PackedSlotCodec.PackedOp;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The PACKED_SLOT argument encoding (docs/PROTOCOL.md, "PACKED_SLOT"). */
class PackedSlotCodecTest {

  @Test
  void workedExample() {
    int[] args = PackedSlotCodec.encode(new PackedOp(1, new int[] {10, 20}), new PackedOp(2, new int[] {30}));
    assertArrayEquals(new int[] {0x0001_0302, 0x0000_0202, 10, 20, 30, 0, 0, 0, 0, 0, 0, 0}, args);
    List<PackedOp> ops = PackedSlotCodec.decode(args);
    assertEquals(2, ops.size());
    assertEquals(1, ops.get(0).opcode());
    assertArrayEquals(new int[] {10, 20}, ops.get(0).args());
    assertEquals(2, ops.get(1).opcode());
    assertArrayEquals(new int[] {30}, ops.get(1).args());
  }

  @Test
  void metadataIsTwoBytesPlusTwoPerOpRoundedUpToWords() {
    assertEquals(1, PackedSlotCodec.metadataWords(0));
    assertEquals(1, PackedSlotCodec.metadataWords(1));
    assertEquals(2, PackedSlotCodec.metadataWords(2));
    assertEquals(12, PackedSlotCodec.metadataWords(23));
    assertEquals(13, PackedSlotCodec.metadataWords(24));
    assertArrayEquals(new int[12], PackedSlotCodec.encode());
  }

  @Test
  void fifteenArgumentWordsExceedTheBudget() {
    PackedOp[] ops = new PackedOp[5];
    for (int i = 0; i < 5; i++) {
      ops[i] = new PackedOp(i, new int[] {1, 2, 3});
    }
    PipelineException e = assertThrows(PipelineException.class, () -> PackedSlotCodec.encode(ops));
    assertEquals(PipelineException.Variant.InvalidArgument, e.variant());
    assertTrue(e.getMessage().contains("packed slot payload exceeds the 12-word slot argument budget"), e.getMessage());
  }

  @Test
  void moreOpsThanTheMetadataHoldsAreRefused() {
    PipelineException tooMany = assertThrows(PipelineException.class, () -> PackedSlotCodec.encode(new PackedOp[256]));
    assertTrue(tooMany.getMessage().contains("at most 255 inner opcodes"), tooMany.getMessage());
    PackedOp[] ops = new PackedOp[24];
    java.util.Arrays.fill(ops, new PackedOp(0, new int[0]));
    PipelineException metadata = assertThrows(PipelineException.class, () -> PackedSlotCodec.encode(ops));
    assertTrue(metadata.getMessage().contains("packed slot metadata exceeds the 12-word slot argument budget"), metadata.getMessage());
    assertEquals(23, PackedSlotCodec.decode(PackedSlotCodec.encode(java.util.Arrays.copyOf(ops, 23))).size());
  }

  @Test
  void innerOpcodesMustFitAByte() {
    assertThrows(PipelineException.class, () -> PackedSlotCodec.encode(new PackedOp(256, new int[0])));
    assertThrows(PipelineException.class, () -> PackedSlotCodec.encode(new PackedOp(-1, new int[0])));
  }

  @Test
  void argBytesReadLittleEndianWithinWords() {
    int[] args = {0x0403_0201, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xAB00_0000};
    assertEquals(1, PackedSlotCodec.argByte(args, 0));
    assertEquals(4, PackedSlotCodec.argByte(args, 3));
    assertEquals(0xAB, PackedSlotCodec.argByte(args, 47));
  }

  @Test
  void decodeRefusesMetadataAndArgumentsBeyondTwelveWords() {
    ProtocolException count = assertThrows(ProtocolException.class,
        () -> PackedSlotCodec.decode(new int[] {0x0000_0018, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    assertEquals(ProtocolException.Variant.InvalidWord, count.variant());
    assertThrows(ProtocolException.class, () -> PackedSlotCodec.decode(new int[] {0x0000_0C01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    assertThrows(ProtocolException.class, () -> PackedSlotCodec.decode(new int[] {0x0200_0202, 0x0000_0100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    assertThrows(ProtocolException.class, () -> PackedSlotCodec.decode(new int[11]));
  }

  @Provide
  Arbitrary<PackedOp> ops() {
    return Combinators.combine(Arbitraries.oneOf(Arbitraries.integers().between(0, 255), Arbitraries.integers()),
        Arbitraries.integers().array(int[].class).ofMaxSize(13)).as(PackedOp::new);
  }

  @Property(tries = 1000)
  void encodeOnlyThrowsTypedErrorsAndWhatItEncodesDecodesBack(@ForAll @Size(max = 30) List<@net.jqwik.api.From("ops") PackedOp> ops) {
    int[] args;
    try {
      args = PackedSlotCodec.encode(ops.toArray(PackedOp[]::new));
    } catch (PipelineException e) {
      assertTrue(e.getMessage().contains("Fix: "));
      return;
    }
    List<PackedOp> decoded = PackedSlotCodec.decode(args);
    assertEquals(ops.size(), decoded.size());
    for (int i = 0; i < ops.size(); i++) {
      assertEquals(ops.get(i).opcode(), decoded.get(i).opcode());
      assertArrayEquals(ops.get(i).args(), decoded.get(i).args());
    }
  }

  @Property(tries = 1000)
  void decodeOnlyThrowsTypedErrors(@ForAll @Size(max = 14) int[] args) {
    Wire.onlyTyped(() -> PackedSlotCodec.decode(args));
  }

  @Property(tries = 1000)
  void decodeOfPlausibleMetadataOnlyThrowsTypedErrors(@ForAll @Size(12) int[] args, @ForAll byte count, @ForAll byte total) {
    args[0] = (args[0] & 0xFFFF_0000) | (count & 0x1F) | (total & 0x0F) << 8;
    Wire.onlyTyped(() -> PackedSlotCodec.decode(args));
  }
}

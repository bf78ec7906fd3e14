package dev.vyre.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** docs/PROTOCOL.md, "Opcodes": opcode numbers and classification. */
class OpcodesTest {

  private static final int[] BUILTINS = {Opcodes.NOP, Opcodes.STORE_U32, Opcodes.ATOMIC_ADD, Opcodes.LOAD_U32,
      Opcodes.COMPARE_SWAP, Opcodes.MEMCPY, Opcodes.DFA_STEP, Opcodes.BATCH_FENCE, Opcodes.PRINTF, Opcodes.PACKED_SLOT,
      Opcodes.SHUTDOWN};

  @Test
  void opcodeNumbersAreVyres() {
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 0xFFFE, 0x8000_0001, 0xFFFF_FFFF}, BUILTINS);
    assertEquals(0xFFFD, Opcodes.LOAD_MISS);
    assertEquals(0x8000_0000, Opcodes.SYSTEM_MASK);
    assertEquals(0xFFF0, Opcodes.RESERVED_MAX_RANGE_MIN);
  }

  @Test
  void systemOpcodesAreTheHighBitTheReservedRangeAndTheLowEight() {
    for (int op : new int[] {0, 7, 0xFFF0, 0xFFFD, 0xFFFF, 0x8000_0000, 0x8000_0001, -1}) {
      assertTrue(Opcodes.isSystem(op), Integer.toHexString(op));
    }
    for (int op : new int[] {8, 0xFFEF, 0x1_0000, 0x7FFF_FFFF, 0x4000_0000}) {
      assertFalse(Opcodes.isSystem(op), Integer.toHexString(op));
    }
  }

  @Test
  void builtinsAreTheLowEightPackedSlotPrintfAndShutdown() {
    for (int op : BUILTINS) {
      assertTrue(Opcodes.isBuiltin(op), Integer.toHexString(op));
    }
    for (int op : new int[] {8, Opcodes.LOAD_MISS, 0xFFF0, 0x8000_0000}) {
      assertFalse(Opcodes.isBuiltin(op), Integer.toHexString(op));
    }
  }

  @Test
  void userOpcodesAre8To0xFFEFAnd0x10000To0x7FFFFFFF() {
    for (int op : new int[] {8, 0xFFEF, 0x1_0000, 0x7FFF_FFFF}) {
      Opcodes.validateUserOpcode(op);
      Opcodes.validatePublishOpcode(op);
    }
    for (int op : new int[] {0, 7, 0xFFF0, Opcodes.PRINTF, 0x8000_0000, Opcodes.SHUTDOWN}) {
      PipelineException e = assertThrows(PipelineException.class, () -> Opcodes.validateUserOpcode(op));
      assertEquals(PipelineException.Variant.InvalidArgument, e.variant());
      assertTrue(e.getMessage().contains("User opcode overlaps with reserved system range or uses the high bit"), e.getMessage());
    }
  }

  @Test
  void builtinsArePublishableButLoadMissIsNot() {
    for (int op : BUILTINS) {
      Opcodes.validatePublishOpcode(op);
    }
    assertThrows(PipelineException.class, () -> Opcodes.validatePublishOpcode(Opcodes.LOAD_MISS));
    assertThrows(PipelineException.class, () -> Opcodes.validatePublishOpcode(0xFFF5));
  }

  @Test
  void namesAndNumbersParse() {
    for (int op : BUILTINS) {
      assertEquals(op, Opcodes.parse(Opcodes.name(op)));
      assertEquals(op, Opcodes.parse(Opcodes.name(op).toLowerCase()));
    }
    assertEquals(Opcodes.LOAD_MISS, Opcodes.parse("load_miss"));
    assertEquals("0x100", Opcodes.name(0x100));
    assertEquals(0x100, Opcodes.parse("0x100"));
    assertEquals(0x100, Opcodes.parse("256"));
    assertEquals(-1, Opcodes.parse("4294967295"));
    for (String bad : new String[] {"", "4294967296", "-1", "+5", "0x", "0x1_0", "NOPE", "١٢", "0x-5", " 5"}) {
      assertNull(Opcodes.parse(bad), bad);
    }
  }

  @Property(tries = 1000)
  void classificationMatchesTheDefinition(@ForAll int op) {
    long u = Integer.toUnsignedLong(op);
    assertEquals(u >= 0x8000_0000L || (u >= 0xFFF0 && u <= 0xFFFF) || u <= 7, Opcodes.isSystem(op));
    boolean publishable;
    try {
      Opcodes.validatePublishOpcode(op);
      publishable = true;
    } catch (PipelineException e) {
      publishable = false;
    }
    assertEquals(Opcodes.isBuiltin(op) || !Opcodes.isSystem(op), publishable);
  }

  @Property(tries = 500)
  void parseNeverThrows(@ForAll String text) {
    Integer op = Opcodes.parse(text);
    if (op != null && !Opcodes.name(op).equalsIgnoreCase(text)) {
      assertTrue(text.matches("[0-9]+|0[xX][0-9a-fA-F]+"), text);
    }
  }
}

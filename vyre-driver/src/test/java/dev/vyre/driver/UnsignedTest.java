package dev.vyre.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UnsignedTest {

  @Test
  void fitsU16() {
    assertTrue(Unsigned.fitsU16(0));
    assertTrue(Unsigned.fitsU16(65_535));
    assertFalse(Unsigned.fitsU16(65_536));
    assertFalse(Unsigned.fitsU16(-1));
  }

  @Test
  void overflowPredicatesUseUnsignedU64() {
    assertTrue(Unsigned.addOverflows(Unsigned.U64_MAX, 1));
    assertFalse(Unsigned.addOverflows(Long.MAX_VALUE, 1));
    assertTrue(Unsigned.subUnderflows(1, 2));
    assertFalse(Unsigned.subUnderflows(Unsigned.U64_MAX, Long.MAX_VALUE));
    assertTrue(Unsigned.mulOverflows(1L << 32, 1L << 32));
    assertFalse(Unsigned.mulOverflows(Long.MAX_VALUE, 2));
    assertFalse(Unsigned.mulOverflows(0, Unsigned.U64_MAX));
  }

  @Test
  void mulDivKeepsA128BitProduct() {
    assertEquals(9000, Unsigned.mulDivSaturatingU64(900_000, 10_000, 1_000_000));
    assertEquals(2500, Unsigned.mulDivSaturatingU64(1L << 62, 10_000, Unsigned.U64_MAX));
    assertEquals(10_000, Unsigned.mulDivSaturatingU64(Unsigned.U64_MAX, 10_000, Unsigned.U64_MAX));
    assertEquals(Unsigned.U64_MAX, Unsigned.mulDivSaturatingU64(Unsigned.U64_MAX, 10_000, 1));
    assertEquals(-2, Unsigned.mulDivSaturatingU64(Unsigned.U64_MAX - 1, 3, 3));
  }

  @Test
  void parseU32AcceptsAsciiDecimalAndHexOnly() {
    assertEquals(0, Unsigned.parseU32("0"));
    assertEquals(160, Unsigned.parseU32("160"));
    assertEquals(0xFFFF_FFFFL, Unsigned.parseU32("4294967295"));
    assertEquals(0xFFFF_FFFFL, Unsigned.parseU32("0xFFFFFFFF"));
    assertEquals(0x51, Unsigned.parseU32("0X51"));
    assertEquals(7, Unsigned.parseU32("0007"));
    for (String bad : new String[] {"", "0x", "x1", "-1", "+1", "4294967296", "0x100000000", "1 ", " 1", "1_000", "\u0661", "0xg", "99999999999999999999999"}) {
      assertEquals(-1, Unsigned.parseU32(bad), bad);
    }
  }
}

package dev.vyre.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FieldsTest {

  @Test
  void splitsOnSpacesAndTabsUpToTheEndGiven() {
    Fields f = new Fields(2);
    String line = " 12\t 34  56 # x";
    assertEquals(3, f.split(line, line.indexOf('#')));
    assertEquals("12", f.text(0));
    assertEquals("34", f.text(1));
    assertEquals(0, f.split("   ", 3));
  }

  @Test
  void naturalsRejectSignsLettersAndValuesAboveTheLimit() {
    Fields f = new Fields(6);
    String line = "+7 -1 x 99 100 00";
    f.split(line, line.length());
    assertEquals(7, f.natural(0, 99));
    assertEquals(-1, f.natural(1, 99));
    assertEquals(-1, f.natural(2, 99));
    assertEquals(99, f.natural(3, 99));
    assertEquals(-1, f.natural(4, 99));
    assertEquals(0, f.natural(5, 99));
    String huge = "9223372036854775807 9223372036854775808 99999999999999999999999";
    f.split(huge, huge.length());
    assertEquals(Long.MAX_VALUE, f.natural(0, Long.MAX_VALUE));
    assertEquals(-1, f.natural(1, Long.MAX_VALUE));
    assertEquals(-1, f.natural(2, Long.MAX_VALUE));
    assertEquals(-1, f.natural(0, Long.MAX_VALUE / 10));
  }

  @Test
  void integersAndRealsAreRecognisedAsCWritesThem() {
    Fields f = new Fields(10);
    String line = "-3 +4 1.5 .5 1e-3 -2.E+7 0x10 1d inf abc";
    f.split(line, line.length());
    assertTrue(f.isInteger(0));
    assertTrue(f.isInteger(1));
    assertFalse(f.isInteger(2));
    for (int k = 0; k < 6; k++) {
      assertTrue(f.isReal(k), f.text(k));
    }
    assertFalse(f.isReal(6));
    assertFalse(f.isReal(7));
    assertTrue(f.isReal(8));
    assertFalse(f.isReal(9));
  }
}

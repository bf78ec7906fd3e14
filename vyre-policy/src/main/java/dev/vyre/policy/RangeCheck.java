package dev.vyre.policy;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;

/** Rejects record components outside the Rust integer type they stand for. */
final class RangeCheck {

  private RangeCheck() {}

  /** {@code value} when it fits a u32, else an {@link InputException} naming the field. */
  static long u32(String field, long value) {
    if (!Unsigned.fitsU32(value)) {
      throw InputException.of("launch policy", field + " " + value + " is outside u32",
          "pass " + field + " in 0..4294967295");
    }
    return value;
  }

  /** {@code value} when it fits a u16, else an {@link InputException} naming the field. */
  static int u16(String field, int value) {
    if (!Unsigned.fitsU16(value)) {
      throw InputException.of("launch policy", field + " " + value + " is outside u16",
          "pass " + field + " in 0..65535 (basis points are not clamped to 10000, but must fit u16)");
    }
    return value;
  }
}

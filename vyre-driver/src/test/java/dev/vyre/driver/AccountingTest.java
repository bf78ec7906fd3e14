package dev.vyre.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.VyreException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Checked count arithmetic (docs/PORTS.md, "Checked arithmetic and accounting") and vyre's H2 vectors. */
class AccountingTest {

  private static final BigInteger U64_LIMIT = BigInteger.ONE.shiftLeft(64);

  /** Records every field it is asked to build an error for, so a test can prove it stayed unused. */
  private static final class Recorder implements Function<String, VyreException> {
    final List<String> fields = new ArrayList<>();

    @Override
    public VyreException apply(String field) {
      fields.add(field);
      return BackendException.other(field);
    }
  }

  @Test
  void checkedAdditionNamesTheFieldOnOverflow() {
    assertEquals(72, Accounting.checkedAddU64(64, 8, "offset", BackendException::other));
    assertEquals(-1L, Accounting.checkedAddU64(-2L, 1, "offset", BackendException::other));
    BackendException error = assertThrows(BackendException.class,
        () -> Accounting.checkedAddU64(-1L, 1, "offset", BackendException::other));
    assertEquals("offset", error.display());
  }

  @Test
  void checkedMultiplicationNamesTheFieldOnOverflow() {
    assertEquals(-2L, Accounting.checkedMulU64(Long.MAX_VALUE, 2, "bytes", BackendException::other));
    assertThrows(BackendException.class, () -> Accounting.checkedMulU64(-1L, 2, "bytes", BackendException::other));
  }

  @Test
  void checkedMulU64BuildsTheErrorOnlyOnOverflow() { // H2: checked_mul_u64_lazy (8, 4) / (u64::MAX, 2)
    Recorder overflow = new Recorder();
    assertEquals(32, Accounting.checkedMulU64(8, 4, "overflow", overflow));
    assertEquals(List.of(), overflow.fields);
    assertThrows(BackendException.class, () -> Accounting.checkedMulU64(Unsigned.U64_MAX, 2, "overflow", overflow));
    assertEquals(List.of("overflow"), overflow.fields);
  }

  @Test
  void checkedMulU32StaysWithinU32() { // H2: checked_mul_u32 (128, 8) / (u32::MAX, 2)
    assertEquals(1_024, Accounting.checkedMulU32(128, 8, "overflow", BackendException::other));
    assertEquals("overflow", assertThrows(BackendException.class,
        () -> Accounting.checkedMulU32(Unsigned.U32_MAX, 2, "overflow", BackendException::other)).display());
  }

  @Test
  void checkedSubtractionReportsUnderflowUnderTheFieldName() { // H2: checked_sub_u64 (1, 2), checked_sub_usize (4, 8)
    assertEquals("underflow", assertThrows(BackendException.class,
        () -> Accounting.checkedSubU64(1, 2, "underflow", BackendException::other)).display());
    assertThrows(BackendException.class, () -> Accounting.checkedSubU64(4, 8, "underflow", BackendException::other));
    assertEquals(0, Accounting.checkedSubU64(5, 5, "underflow", BackendException::other));
  }

  @Test
  void byteRangeEndIsLazyOnSuccess() { // H2: byte_range_end (8, 4, 16)
    Recorder overflow = new Recorder();
    List<Long> outOfBounds = new ArrayList<>();
    assertEquals(12, Accounting.checkedByteRangeEnd(8, 4, 16, "range", overflow, end -> {
      outOfBounds.add(end);
      return BackendException.other("bounds");
    }));
    assertEquals(List.of(), overflow.fields);
    assertEquals(List.of(), outOfBounds);
  }

  @Test
  void byteRangeEndPassesTheComputedEndToTheBoundsError() { // H2: byte_range_end (8, 5, 12) gives Err(13)
    BackendException error = assertThrows(BackendException.class, () -> Accounting.checkedByteRangeEnd(8, 5, 12,
        "range", BackendException::other, end -> BackendException.other(Long.toUnsignedString(end))));
    assertEquals("13", error.display());
    assertEquals(12, Accounting.checkedByteRangeEnd(8, 4, 12, "range", BackendException::other,
        end -> BackendException.other("bounds")));
    assertEquals("range", assertThrows(BackendException.class, () -> Accounting.checkedByteRangeEnd(Unsigned.U64_MAX,
        1, Unsigned.U64_MAX, "range", BackendException::other, end -> BackendException.other("bounds"))).display());
  }

  @Test
  void countHelpersPreserveTheDomainField() {
    Recorder overflow = new Recorder();
    assertEquals(5, Accounting.checkedAddU32(2, 3, "u32 add", overflow));
    assertEquals(Unsigned.U32_MAX, Accounting.checkedAddU32(Unsigned.U32_MAX - 1, 1, "u32 add", overflow));
    assertThrows(BackendException.class, () -> Accounting.checkedAddU64(Unsigned.U64_MAX, 1, "u64 add", overflow));
    assertThrows(BackendException.class, () -> Accounting.checkedMulU64(Unsigned.U64_MAX, 2, "u64 mul", overflow));
    assertThrows(BackendException.class, () -> Accounting.checkedSubU64(0, 1, "u64 sub", overflow));
    assertThrows(BackendException.class, () -> Accounting.checkedAddU32(Unsigned.U32_MAX, 1, "u32 add", overflow));
    assertEquals(List.of("u64 add", "u64 mul", "u64 sub", "u32 add"), overflow.fields);
  }

  @Test
  void checkedMatrixMatchesExactArithmetic() {
    long[] values = {0, 1, 2, 3, 7, 31, 255, 1_024, Unsigned.U32_MAX, Long.MAX_VALUE, Unsigned.U64_MAX - 1,
        Unsigned.U64_MAX};
    for (long a : values) {
      for (long b : values) {
        BigInteger x = unsigned(a);
        BigInteger y = unsigned(b);
        assertChecked(x.add(y), () -> Accounting.checkedAddU64(a, b, "add", BackendException::other));
        assertChecked(x.subtract(y), () -> Accounting.checkedSubU64(a, b, "sub", BackendException::other));
        assertChecked(x.multiply(y), () -> Accounting.checkedMulU64(a, b, "mul", BackendException::other));
      }
    }
  }

  private static void assertChecked(BigInteger exact, java.util.function.LongSupplier checked) {
    if (exact.signum() < 0 || exact.compareTo(U64_LIMIT) >= 0) {
      assertSame(BackendException.class, assertThrows(VyreException.class, checked::getAsLong).getClass());
    } else {
      assertEquals(exact.longValue(), checked.getAsLong());
    }
  }

  private static BigInteger unsigned(long bits) {
    return new BigInteger(Long.toUnsignedString(bits));
  }
}

package dev.vyre.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.BackendException;
import org.junit.jupiter.api.Test;

/** vyre-driver-cuda.md §1.1 checked count arithmetic. */
class AccountingTest {

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
    assertEquals(32, Accounting.checkedMulU64(8, 4, "bytes", BackendException::other));
    assertEquals(-2L, Accounting.checkedMulU64(Long.MAX_VALUE, 2, "bytes", BackendException::other));
    assertThrows(BackendException.class, () -> Accounting.checkedMulU64(-1L, 2, "bytes", BackendException::other));
  }
}

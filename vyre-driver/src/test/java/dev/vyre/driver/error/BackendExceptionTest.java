package dev.vyre.driver.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** docs/PORTS.md, "Backend errors and recovery": BackendError variants, their codes and display text. */
class BackendExceptionTest {

  @Test
  void otherIsUnknownAndDisplaysTheMessageVerbatim() {
    BackendException error = BackendException.other("something broke. Fix: try again.");
    assertEquals(ErrorCode.Unknown, error.code());
    assertEquals(BackendException.Variant.Other, error.variant());
    assertEquals("something broke. Fix: try again.", error.display());
    assertEquals("something broke. Fix: try again.", error.fields().get("message"));
  }

  @Test
  void deviceOutOfMemoryKeepsVyresTenSpacesBeforeFix() {
    BackendException error = BackendException.deviceOutOfMemory(-1L, 10);
    assertEquals(ErrorCode.DeviceOutOfMemory, error.code());
    assertEquals("device out of memory: requested 18446744073709551615 bytes, 10 available.          Fix: reduce "
        + "buffer sizes or split the dispatch into smaller chunks.", error.display());
    assertTrue(error.display().contains("Fix:"));
  }
}

package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MegakernelQueuePressureTest {

  @ParameterizedTest
  @CsvSource({"0, 64, 5, Empty", "63, 64, 0, Light", "64, 64, 0, Balanced", "255, 64, 0, Balanced",
      "256, 64, 0, Saturated", "1, 64, 1, Saturated", "1, 0, 0, Balanced", "4, 0, 0, Saturated"})
  void classify(long queue, long lanes, long requeues, MegakernelQueuePressure expected) {
    assertEquals(expected, MegakernelQueuePressure.classify(queue, lanes, requeues, 4));
  }

  @Test
  void aWaveThresholdPastU64IsAnError() {
    BackendException error = assertThrows(BackendException.class,
        () -> MegakernelQueuePressure.classify(1, Unsigned.U64_MAX, 0, 2));
    assertEquals("megakernel pressure wave threshold overflowed u64. Fix: reduce worker lanes or saturated_waves.",
        error.getMessage());
  }
}

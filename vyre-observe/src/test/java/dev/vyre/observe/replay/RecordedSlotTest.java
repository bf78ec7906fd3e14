package dev.vyre.observe.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.PipelineException;
import org.junit.jupiter.api.Test;

class RecordedSlotTest {

  @Test
  void keepsTheFirstFourArgumentsAndPadsWithZeros() {
    assertArrayEquals(new int[] {1, 2, 3, 4}, RecordedSlot.of(0, 0, 0, 2, new int[] {1, 2, 3, 4, 5, 6}, 0).args());
    assertArrayEquals(new int[] {9, 0, 0, 0}, RecordedSlot.of(0, 0, 0, 2, new int[] {9}, 0).args());
    RecordedSlot slot = RecordedSlot.of(5, 6, 7, 8, new int[0], 10);
    assertEquals(new RecordedSlot(5, 6, 7, 8, 0, 0, 0, 0, 10), slot);
  }

  @Test
  void refusesMoreArgumentsThanASlotHolds() {
    assertThrows(PipelineException.class, () -> RecordedSlot.of(0, 0, 0, 0, new int[13], 0));
  }
}

package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class RingSlotSnapshotTest {

  @Test
  void argsPrefixIsArg0ToArg2() {
    RingSlotSnapshot slot = new RingSlotSnapshot(3, RingStatus.of(1), 2, 9, 10, 20, 0xFFFF_FFFFL);
    assertArrayEquals(new long[] {10, 20, 0xFFFF_FFFFL}, slot.argsPrefix());
  }
}

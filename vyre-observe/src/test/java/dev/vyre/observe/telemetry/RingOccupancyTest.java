package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RingOccupancyTest {

  @Test
  void totalCountsEverythingAndDepthEverythingButEmptyAndDone() {
    RingOccupancy occupancy = new RingOccupancy(1, 2, 3, 4, 5, 6, 7, 8, 9);
    assertEquals(45, occupancy.totalSlots());
    assertEquals(40, occupancy.queueDepth());
  }

  @Test
  void sumsSaturateAtU32Max() {
    RingOccupancy occupancy = new RingOccupancy(0, 0xFFFF_FFFFL, 0, 0, 0, 0, 0, 0, 5);
    assertEquals(0xFFFF_FFFFL, occupancy.totalSlots());
    assertEquals(0xFFFF_FFFFL, occupancy.queueDepth());
  }
}

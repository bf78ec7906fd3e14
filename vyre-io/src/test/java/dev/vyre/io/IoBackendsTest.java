package dev.vyre.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

class IoBackendsTest {

  @Test
  void picksIoUringWhereItWorksAndSaysWhyNotElsewhere() {
    IoUringAvailability availability = IoBackends.availability();
    System.out.println("IoBackends: " + availability.detail());
    try (Arena arena = Arena.ofConfined(); ChunkReader reader = IoBackends.open(
        BufferPool.of(BufferPool.allocate(arena, 2, 4096)))) {
      if (availability.available()) {
        assertEquals("io_uring", reader.backend());
      } else {
        assertEquals("FileChannel (" + availability.detail() + ")", reader.backend());
      }
    }
  }
}

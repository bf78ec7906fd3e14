package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import org.junit.jupiter.api.Test;

/** The arena's size switch, read without a GPU; CudaPreLaunchArenaGpuTest checks the arena on a device. */
class PreLaunchArenaTest {

  @Test
  void sizesAreBytesWithAnOptionalBinarySuffix() {
    assertEquals(0, PreLaunchArena.parseBytes(null));
    assertEquals(0, PreLaunchArena.parseBytes(" "));
    assertEquals(4096, PreLaunchArena.parseBytes("4096"));
    assertEquals(64L << 10, PreLaunchArena.parseBytes("64k"));
    assertEquals(512L << 20, PreLaunchArena.parseBytes("512M"));
    assertEquals(2L << 30, PreLaunchArena.parseBytes(" 2g "));
  }

  @Test
  void anythingElseIsRefusedWithAFix() {
    for (String text : new String[] {"0", "-1", "m", "12x", "1.5g", "9223372036854775807g"}) {
      PipelineException error = assertThrows(PipelineException.class, () -> PreLaunchArena.parseBytes(text), text);
      assertTrue(error.getMessage().contains(PreLaunchArena.PROPERTY) && error.getMessage().contains("Fix: "), error.getMessage());
    }
  }
}

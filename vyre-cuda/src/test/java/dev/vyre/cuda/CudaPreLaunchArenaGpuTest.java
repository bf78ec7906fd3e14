package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Resources cut from memory reserved before the launch ({@code -Dvyre.cuda.preLaunchArena}): the kernel reads
 * them, the host writes and reads them, mapped ones start on pages, and one past the arena's size is refused
 * with a typed error. compute-sanitizer on a scan (scripts/gpu-check.sh, sanitizer-scan-*) relies on it.
 */
@Tag("gpu")
class CudaPreLaunchArenaGpuTest {

  /** Copies word arg1 of resource arg0 into observable 0. */
  private static final int READ_WORD = 0x311;
  private static final UserOpcode READ = UserOpcode.both(READ_WORD, "read-word", slot -> {
    MemorySegment resource = slot.resource(slot.arg(0));
    Words.set(slot.control(), ControlLayout.observableWord(0), resource.getAtIndex(ValueLayout.JAVA_INT, slot.arg(1)));
    return SlotLayout.STATUS_DONE;
  }, """
      const VyreResource* r = vyre_resource(a, args[0]);
      if (!r || (args[1] + 1ull) * 4ull > vyre_resource_bytes(r)) { status = VYRE_STATUS_FAULT; }
      else { vyre_write(a, VYRE_CTL_OBSERVABLE_BASE, reinterpret_cast<const unsigned*>(r->ptr)[args[1]]); }""");

  @Test
  void resourcesComeFromTheArenaAndOnePastItIsRefused() throws Exception {
    System.setProperty(PreLaunchArena.PROPERTY, "1m");
    Megakernel kernel;
    try {
      kernel = Megakernel.builder().backend(new CudaBackend()).slots(64).userOpcode(READ).bootstrap();
    } finally {
      System.clearProperty(PreLaunchArena.PROPERTY);
    }
    try (kernel) {
      assertTrue(kernel.describe().contains("reserved before the launch"), kernel.describe());
      int device = kernel.allocateResource(4096, ResourcePlacement.DEVICE);
      int mapped = kernel.allocateResource(10_000, ResourcePlacement.HOST_MAPPED);
      int[] words = new int[1024];
      for (int i = 0; i < words.length; i++) {
        words[i] = i * 7919;
      }
      kernel.writeResource(device, 0, MemorySegment.ofArray(words));
      MemorySegment host = kernel.resource(mapped);
      assertEquals(0, host.address() % 4096, "a mapped resource starts on a page");
      host.setAtIndex(ValueLayout.JAVA_INT, 2499, 0x5EED);
      assertEquals(1000 * 7919, read(kernel, device, 1000));
      assertEquals(0x5EED, read(kernel, mapped, 2499));
      int[] back = new int[1024];
      kernel.readResource(device, 0, MemorySegment.ofArray(back));
      assertEquals(words[1023], back[1023]);
      PipelineException full = assertThrows(PipelineException.class, () -> kernel.allocateResource(1 << 20, ResourcePlacement.DEVICE));
      assertTrue(full.getMessage().contains(PreLaunchArena.PROPERTY) && full.getMessage().contains("Fix: "), full.getMessage());
    }
  }

  private static int read(Megakernel kernel, int resource, int word) throws Exception {
    assertEquals(SlotLayout.STATUS_DONE, kernel.submit(Task.of(READ_WORD, resource, word)).get(30, TimeUnit.SECONDS).status().code());
    return Words.get(MemorySegment.ofArray(kernel.controlSnapshot()), ControlLayout.observableWord(0));
  }
}

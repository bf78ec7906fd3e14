package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.io.IoRequestPump;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pump on its own, on a session whose kernel never runs: the test plays the kernel's side of
 * the IO queue (a request and PUBLISHED per slot) and checks the host's (CLAIMED, the bytes, OK).
 */
class IoRequestPumpTest {

  @TempDir
  Path dir;

  @Test
  void threadsServeTheirOwnSlotsAndEveryRequestOnce() throws Exception {
    byte[] content = new byte[1 << 20];
    new Random(11).nextBytes(content);
    Path file = Files.write(dir.resolve("data.bin"), content);
    KernelSession session = new ReferenceBackend().open(new KernelSpec(8, ControlLayout.defaultPriorityOffsets(8), 1, 0, List.of(), 1));
    try (IoRequestPump pump = new IoRequestPump(session, 3)) {
      assertEquals(3, pump.threads());
      assertEquals(3, Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("vyre-io-pump-")).count());
      int source = pump.open(file);
      MemorySegment queue = session.memory().ioQueue();
      int[] resources = new int[IoQueueLayout.IO_SLOT_COUNT];
      for (int slot = 0; slot < resources.length; slot++) {
        resources[slot] = session.allocateResource(4096, ResourcePlacement.HOST_MAPPED);
        IoQueueLayout.publishRead(queue, slot, source, resources[slot], slot * 10_007L, 4096, slot);
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      for (int slot = 0; slot < resources.length; slot++) {
        int status;
        while ((status = Words.getAcquire(queue, IoQueueLayout.word(slot, IoQueueLayout.STATUS))) != IoQueueLayout.STATUS_OK) {
          assertTrue(status == SlotLayout.STATUS_PUBLISHED || status == SlotLayout.STATUS_CLAIMED, "slot " + slot + ": " + status);
          assertTrue(System.nanoTime() < deadline, "slot " + slot + " was not served");
          Thread.onSpinWait();
        }
        byte[] read = new byte[4096];
        session.readResource(resources[slot], 0, MemorySegment.ofArray(read));
        assertArrayEquals(Arrays.copyOfRange(content, slot * 10_007, slot * 10_007 + 4096), read, "slot " + slot);
      }
      assertEquals(new IoRequestPump.Stats(IoQueueLayout.IO_SLOT_COUNT, 0, null), pump.stats());
    } finally {
      session.close();
    }
    assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("vyre-io-pump-") && t.isAlive()));
  }

  @Test
  void aThreadCountOutsideTheQueueIsRefused() {
    KernelSession session = new ReferenceBackend().open(new KernelSpec(8, ControlLayout.defaultPriorityOffsets(8), 1, 0, List.of(), 1));
    try {
      for (int threads : new int[] {0, IoQueueLayout.IO_SLOT_COUNT + 1}) {
        InputException e = assertThrows(InputException.class, () -> new IoRequestPump(session, threads));
        assertTrue(e.getMessage().contains("Fix:"), e.getMessage());
      }
    } finally {
      session.close();
    }
  }
}

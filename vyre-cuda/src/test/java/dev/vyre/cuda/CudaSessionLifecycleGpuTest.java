package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.spi.KernelMemory;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A CUDA session's life on the device: failed bootstraps free what they took, closed sessions
 * refuse, their memory's views end before it is freed, interrupts.
 */
@Tag("gpu")
class CudaSessionLifecycleGpuTest {

  private static Megakernel bootstrap() {
    return Megakernel.builder().backend(new CudaBackend()).slots(64).bootstrap();
  }

  @Test
  void aUserOpcodeThatDoesNotCompileFailsEachBootstrapWithItsLogAndTheNextGoodOneRuns() throws Exception {
    UserOpcode broken = UserOpcode.both(0x310, "broken", ctx -> SlotLayout.STATUS_DONE, "this is not CUDA C;");
    for (int i = 0; i < 20; i++) {
      VyreException error = assertThrows(VyreException.class,
          () -> Megakernel.builder().backend(new CudaBackend()).slots(64).userOpcode(broken).bootstrap().close());
      assertTrue(error.getMessage().contains("Fix:"), error.getMessage());
    }
    try (Megakernel kernel = bootstrap()) {
      assertEquals(SlotLayout.STATUS_DONE, kernel.submit(Task.of(Opcodes.NOP)).get(30, TimeUnit.SECONDS).status().code());
    }
  }

  @Test
  void aHeapSegmentWrittenToADeviceResourceReadsBackTheSame() {
    try (Megakernel kernel = bootstrap()) {
      int handle = kernel.allocateResource(4096, ResourcePlacement.DEVICE);
      byte[] bytes = new byte[4096];
      byte[] back = new byte[4096];
      for (int round = 0; round < 2_000; round++) {
        for (int i = 0; i < bytes.length; i++) {
          bytes[i] = (byte) (i * 31 + round);
        }
        kernel.writeResource(handle, 0, MemorySegment.ofArray(bytes));
        kernel.readResource(handle, 0, MemorySegment.ofArray(back));
        assertArrayEquals(bytes, back, "round " + round);
      }
    }
  }

  @Test
  void afterShutdownSnapshotsStillAnswerAndResourcesRefuseWithClosed() throws Exception {
    Megakernel kernel = bootstrap();
    int handle = kernel.allocateResource(64, ResourcePlacement.DEVICE);
    kernel.submit(Task.of(Opcodes.NOP)).get(30, TimeUnit.SECONDS);
    kernel.close();
    assertTrue(kernel.controlSnapshot().length > 0);
    KernelException closed = assertThrows(KernelException.class, () -> kernel.readResource(handle, 0, MemorySegment.ofArray(new byte[64])));
    assertEquals(KernelException.Variant.Closed, closed.variant());
  }

  @Test
  void closingFromAnInterruptedThreadReturnsAndKeepsTheInterrupt() {
    Megakernel kernel = bootstrap();
    Thread.currentThread().interrupt();
    long start = System.nanoTime();
    try {
      kernel.shutdown(Duration.ofSeconds(5));
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the caller");
    } finally {
      Thread.interrupted();
    }
    assertTrue(System.nanoTime() - start < 15_000_000_000L, "shutdown returned within 15 s");
  }

  @Test
  void theViewsOfAClosedSessionThrowInsteadOfReadingItsFreedPinnedMemory() {
    for (boolean launch : new boolean[] {false, true}) {
      int[] offsets = ControlLayout.defaultPriorityOffsets(64);
      KernelSession session = new CudaBackend().open(new KernelSpec(64, offsets, 1, 0, List.of(), 0));
      KernelMemory memory = session.memory();
      MemorySegment resource = session.resource(session.allocateResource(4096, ResourcePlacement.HOST_MAPPED));
      Words.set(resource, 0, 7);
      assertEquals(7, Words.get(resource, 0));
      if (launch) {
        // As Megakernel does before it launches: the kernel reads the encoded control block.
        ControlLayout.encodeInto(memory.control(), false, 1);
        ControlLayout.writePriorityOffsets(memory.control(), offsets);
        session.launch();
      }
      session.close();
      for (MemorySegment segment : List.of(memory.control(), memory.ring(), memory.debugLog(), memory.ioQueue(), memory.express(), resource)) {
        assertThrows(IllegalStateException.class, () -> Words.get(segment, 0), "launched: " + launch);
      }
      assertEquals(memory.control().byteSize(), session.snapshotControl().length, "the snapshot answers from close's copy");
      assertEquals(1, Words.get(MemorySegment.ofArray(session.snapshotControl()), ControlLayout.SHUTDOWN));
      KernelException closed = assertThrows(KernelException.class, () -> session.resource(0));
      assertEquals(KernelException.Variant.Closed, closed.variant());
      session.close();
    }
  }
}

package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A CUDA session's life on the device: failed bootstraps free what they took, closed sessions refuse, interrupts. */
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
    assertEquals("Closed", closed.variant());
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
}

package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.DeviceException;
import dev.vyre.driver.error.ErrorCode;
import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.RetryClass;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.SlotLayout;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Kernel failures become typed errors, never hangs. Each test leaves this process's CUDA context
 * with a sticky error (a trap or an illegal address): CUDA then refuses all further work in the
 * process, so scripts/gpu-check.sh runs each test in a JVM of its own, and each checks that the
 * next bootstrap fails fast with a typed error rather than hanging.
 */
@Tag("gpu-fault")
class CudaFaultGpuTest {

  @Test
  void aStalledKernelIsCaughtAndTornDown() throws Exception {
    UserOpcode spin = UserOpcode.both(0x300, "spin-forever", ctx -> SlotLayout.STATUS_DONE, "while (true) { __nanosleep(1000); }");
    Megakernel kernel = Megakernel.builder().backend(new CudaBackend()).slots(64).userOpcode(spin)
        .stallTimeout(Duration.ofSeconds(2)).bootstrap();
    var future = kernel.submit(Task.of(0x300));
    ExecutionException error = assertThrows(ExecutionException.class, () -> future.get(30, TimeUnit.SECONDS));
    KernelException stalled = assertInstanceOf(KernelException.class, error.getCause());
    assertEquals(KernelException.Variant.Stalled, stalled.variant());
    assertTrue(stalled.lastSnapshot().contains("in_flight=1"), stalled.lastSnapshot());
    kernel.close();
    assertNextBootstrapFailsFast();
  }

  @Test
  void anIllegalAddressBecomesATypedErrorNotAHang() throws Exception {
    UserOpcode wild = UserOpcode.both(0x301, "wild-store", ctx -> SlotLayout.STATUS_DONE, "*(volatile unsigned*)(0x10ull) = 1u;");
    Megakernel kernel = Megakernel.builder().backend(new CudaBackend()).slots(64).userOpcode(wild).bootstrap();
    var future = kernel.submit(Task.of(0x301));
    ExecutionException error = assertThrows(ExecutionException.class, () -> future.get(30, TimeUnit.SECONDS));
    KernelException fault = assertInstanceOf(KernelException.class, error.getCause());
    assertEquals(KernelException.Variant.DeviceFault, fault.variant());
    assertEquals(ErrorCode.DeviceLost, fault.code(), "a sticky CUDA error: this process cannot use the device again");
    assertEquals(RetryClass.NewDevice, fault.retryClass());
    kernel.close();
    assertNextBootstrapFailsFast();
  }

  private static void assertNextBootstrapFailsFast() {
    long start = System.nanoTime();
    assertThrows(DeviceException.class, () -> Megakernel.builder().backend(new CudaBackend()).slots(64).bootstrap().close());
    assertTrue(System.nanoTime() - start < 30_000_000_000L, "the failed bootstrap returned within 30 s");
  }
}

package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.Megakernel;

import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The reference session's own contract, without a kernel launched on it. */
class ReferenceSessionTest {

  /** A device ordinal is a label on the reference backend: any is taken and reported; a negative one is refused. */
  @Test
  void aDeviceIsALabelOfTheCpu() {
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).device(3).slots(8).workers(1).bootstrap()) {
      assertEquals(3, kernel.device());
      assertTrue(kernel.describe().startsWith("reference (device 3, a label: every device is this CPU): "), kernel.describe());
    }
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(8).workers(1).bootstrap()) {
      assertEquals(0, kernel.device());
    }
    InputException negative = assertThrows(InputException.class, () -> Megakernel.builder().device(-1));
    assertTrue(negative.getMessage().contains("Fix: "), negative.getMessage());
    assertEquals(List.of(new ReferenceBackend().availability().detail()),
        new ReferenceBackend().devices().stream().map(a -> a.detail()).toList());
  }

  @Test
  void resourcesAllocatedConcurrentlyGetDistinctHandles() throws Exception {
    KernelSession session = new ReferenceBackend().open(new KernelSpec(8, ControlLayout.defaultPriorityOffsets(8), 1, 0, List.of(), 1));
    int threads = 4;
    int each = 2_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CyclicBarrier start = new CyclicBarrier(threads);
      List<Future<List<Integer>>> allocated = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        allocated.add(pool.submit(() -> {
          start.await();
          List<Integer> handles = new ArrayList<>();
          for (int i = 0; i < each; i++) {
            handles.add(session.allocateResource(8, ResourcePlacement.HOST_MAPPED));
          }
          return handles;
        }));
      }
      Set<Integer> distinct = new HashSet<>();
      for (Future<List<Integer>> handles : allocated) {
        distinct.addAll(handles.get(60, TimeUnit.SECONDS));
      }
      assertEquals(threads * each, distinct.size(), "every allocation has a handle of its own");
    } finally {
      pool.shutdownNow();
      session.close();
    }
  }

  private static KernelSession openSession() {
    return new ReferenceBackend().open(new KernelSpec(8, ControlLayout.defaultPriorityOffsets(8), 1, 0, List.of(), 1));
  }

  @Test
  void segmentsHandedOutBeforeCloseThrowAfterItInsteadOfReadingFreedMemory() {
    KernelSession session = openSession();
    session.launch();
    MemorySegment ring = session.memory().ring();
    MemorySegment control = session.memory().control();
    MemorySegment resource = session.resource(session.allocateResource(64, ResourcePlacement.HOST_MAPPED));
    Words.set(resource, 0, 7);
    byte[] controlBefore = session.snapshotControl();
    session.close();
    for (MemorySegment segment : List.of(ring, control, session.memory().debugLog(), session.memory().ioQueue(),
        session.memory().express(), resource)) {
      assertThrows(IllegalStateException.class, () -> Words.get(segment, 0));
    }
    byte[] controlAfter = session.snapshotControl();
    assertEquals(controlBefore.length, controlAfter.length, "the snapshot still answers, from close's copy");
    assertEquals(ControlLayout.KERNEL_STATE_EXITED, Words.get(MemorySegment.ofArray(controlAfter), ControlLayout.KERNEL_STATE));
    assertTrue(session.snapshotDebugLog().length > 0);
    session.close();
  }

  @Test
  void resourceCallsAfterCloseFailWithClosed() {
    KernelSession session = openSession();
    int handle = session.allocateResource(64, ResourcePlacement.HOST_MAPPED);
    session.close();
    MemorySegment bytes = MemorySegment.ofArray(new byte[8]);
    for (Runnable call : List.<Runnable>of(() -> session.allocateResource(8, ResourcePlacement.HOST_MAPPED),
        () -> session.resource(handle), () -> session.writeResource(handle, 0, bytes), () -> session.readResource(handle, 0, bytes),
        () -> session.startCopy(handle, handle, 8))) {
      KernelException closed = assertThrows(KernelException.class, call::run);
      assertEquals(KernelException.Variant.Closed, closed.variant());
    }
  }

  @Test
  void aReaderRacingCloseGetsIllegalStateExceptionNeverFreedMemory() throws Exception {
    for (int round = 0; round < 50; round++) {
      KernelSession session = openSession();
      MemorySegment ring = session.memory().ring();
      AtomicBoolean reading = new AtomicBoolean();
      AtomicReference<Throwable> ended = new AtomicReference<>();
      Thread reader = Thread.ofPlatform().daemon().start(() -> {
        try {
          while (true) {
            reading.set(true);
            Words.toBytes(ring);
          }
        } catch (Throwable t) {
          ended.set(t);
        }
      });
      while (!reading.get()) {
        Thread.onSpinWait();
      }
      session.close();
      reader.join(TimeUnit.SECONDS.toMillis(10));
      assertTrue(ended.get() instanceof IllegalStateException, "round " + round + ": " + ended.get());
    }
  }

  @Test
  void snapshotsAfterCloseAreTheFinalContents() {
    KernelSession session = openSession();
    Words.set(session.memory().control(), ControlLayout.EPOCH, 42);
    session.close();
    MemorySegment first = MemorySegment.ofArray(session.snapshotControl());
    assertEquals(42, Words.get(first, ControlLayout.EPOCH));
    Words.set(first, ControlLayout.EPOCH, 0);
    assertEquals(42, Words.get(MemorySegment.ofArray(session.snapshotControl()), ControlLayout.EPOCH), "each call gets its own copy");
  }

  @Test
  void closeAllClosesEveryKernel() {
    List<Megakernel> kernels = new ArrayList<>();
    for (int device = 0; device < 3; device++) {
      kernels.add(Megakernel.builder().backend(new ReferenceBackend()).device(device).slots(8).workers(1).bootstrap());
    }
    Megakernel.closeAll(kernels);
    assertTrue(kernels.stream().noneMatch(Megakernel::isKernelRunning));
  }
}

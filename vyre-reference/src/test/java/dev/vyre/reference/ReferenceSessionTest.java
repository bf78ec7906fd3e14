package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.ControlLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The reference session's own contract, without a kernel launched on it. */
class ReferenceSessionTest {

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
}

package dev.vyre.cuda.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.vyre.driver.planner.MegakernelBarrierPlanException;
import dev.vyre.driver.planner.MegakernelFrontierMemoryPlanException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** vyre's {@code From<MegakernelFrontierMemoryPlanError>}: same-named variants, the CUDA planner's display texts. */
class CudaMegakernelFrontierExecutionPlanExceptionTest {

  @Test
  void frontierErrorsMapOneToOne() {
    MegakernelBarrierPlanException cycle = MegakernelBarrierPlanException.cycle(2);
    CudaMegakernelFrontierExecutionPlanException barrier =
        CudaMegakernelFrontierExecutionPlanException.from(MegakernelFrontierMemoryPlanException.barrier(cycle));
    assertEquals(CudaMegakernelFrontierExecutionPlanException.Variant.Barrier, barrier.variant());
    assertSame(cycle, barrier.fields().get("inner"));
    assertEquals(cycle.display(), barrier.display());

    CudaMegakernelFrontierExecutionPlanException storage = CudaMegakernelFrontierExecutionPlanException.from(
        MegakernelFrontierMemoryPlanException.storageReserveFailed("split barrier groups", 9, "refused"));
    assertEquals(CudaMegakernelFrontierExecutionPlanException.Variant.StorageReserveFailed, storage.variant());
    assertEquals(Map.of("field", "split barrier groups", "requested", 9L, "message", "refused"),
        Map.copyOf(storage.fields()));
    assertEquals("CUDA megakernel frontier execution planner could not reserve 9 split barrier groups entries: refused. "
        + "Fix: shard the frontier waves before planning.", storage.display());
    assertEquals("CudaMegakernelFrontierExecutionPlanError", storage.errorType());
  }
}

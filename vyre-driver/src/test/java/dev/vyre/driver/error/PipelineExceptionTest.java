package dev.vyre.driver.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pipeline variants tell back-pressure from a request that can never succeed. */
class PipelineExceptionTest {

  @Test
  void onlyQueueFullIsBackPressure() {
    PipelineException full = PipelineException.queueFull("submission", "all 8 slots are in flight", "wait for completions");
    assertEquals(PipelineException.Variant.QueueFull, full.variant());
    assertTrue(full.isQueueFull());
    for (PipelineException other : List.of(
        PipelineException.invalidArgument("submission", "slot count 0 is outside 1..1048576", "bootstrap with 1 or more slots"),
        PipelineException.busy("ingest chunk", "chunk 1's read has not finished", "wait for its future"),
        PipelineException.closed("ingest pump", "open a new IngestPump"))) {
      assertFalse(other.isQueueFull(), other.getMessage());
    }
  }

  @Test
  void invalidArgumentSaysWhatIsWrongAndEndsWithAFix() {
    PipelineException e = PipelineException.invalidArgument("tenant", "tenant id 29 is outside 0..28", "publish with a tenant id below 29");
    assertEquals(PipelineException.Variant.InvalidArgument, e.variant());
    assertEquals("PipelineError", e.errorType());
    assertEquals("invalid tenant request: tenant id 29 is outside 0..28. Fix: publish with a tenant id below 29", e.getMessage());
    assertEquals(Map.of("subject", "tenant", "problem", "tenant id 29 is outside 0..28", "fix", "publish with a tenant id below 29"),
        Map.copyOf(e.fields()));
  }

  @Test
  void busyAndClosedEndWithAFix() {
    PipelineException busy = PipelineException.busy("chunk reader", "buffer 1 already has a read in flight", "wait for it");
    assertEquals(PipelineException.Variant.Busy, busy.variant());
    assertEquals("chunk reader: buffer 1 already has a read in flight. Fix: wait for it", busy.getMessage());
    PipelineException closed = PipelineException.closed("ingest pump", "open a new IngestPump");
    assertEquals(PipelineException.Variant.Closed, closed.variant());
    assertEquals("ingest pump is closed. Fix: open a new IngestPump", closed.getMessage());
  }

  @Test
  void theVariantNameIsTheWireName() {
    VyreException e = PipelineException.queueFull("submission", "wait");
    assertEquals("QueueFull", e.variant().name());
  }
}

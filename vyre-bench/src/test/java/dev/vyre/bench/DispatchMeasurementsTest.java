package dev.vyre.bench;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.reference.ReferenceBackend;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import org.junit.jupiter.api.Test;

class DispatchMeasurementsTest {

  @Test
  void aPublisherThatFailsFailsTheThroughputRunInsteadOfMeasuringNothing() {
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(16)
        .singlePriority(Priority.NORMAL).workers(1).bootstrap()) {
      PipelineException error = assertThrows(PipelineException.class, () -> DispatchMeasurements.throughput(kernel, 1000, 2, 32));
      assertTrue(error.getMessage().contains("exceeds the NORMAL partition of 16 slots"), error.getMessage());
    }
  }
}

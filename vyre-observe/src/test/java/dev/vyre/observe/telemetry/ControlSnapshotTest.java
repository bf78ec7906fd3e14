package dev.vyre.observe.telemetry;

import static dev.vyre.observe.telemetry.Snapshots.control;
import static dev.vyre.observe.telemetry.Snapshots.setWord;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class ControlSnapshotTest {

  @Test
  void decodesShutdownCountersMetricsAndFairness() {
    byte[] control = ControlLayout.encode(true, 7, 4);
    setWord(control, ControlLayout.DONE_COUNT, -1);
    setWord(control, ControlLayout.EPOCH, 12);
    setWord(control, ControlLayout.metricWord(Opcodes.ATOMIC_ADD), 9);
    setWord(control, ControlLayout.metricWord(Opcodes.STORE_U32), 2);
    setWord(control, ControlLayout.metricWord(31), 1);
    setWord(control, ControlLayout.TENANT_FAIRNESS_BASE + 31, 5);
    setWord(control, ControlLayout.PRIORITY_FAIRNESS_BASE + 4, 6);
    setWord(control, ControlLayout.HEARTBEAT, 99);
    ControlSnapshot snapshot = ControlSnapshot.decode(control);
    assertTrue(snapshot.shutdown());
    assertEquals(4_294_967_295L, snapshot.doneCount());
    assertEquals(12, snapshot.epoch());
    assertEquals(List.of(new ControlSnapshot.Metric(1, 2), new ControlSnapshot.Metric(2, 9), new ControlSnapshot.Metric(31, 1)),
        snapshot.metrics());
    assertEquals(32, snapshot.tenantFairness().length);
    assertEquals(5, snapshot.tenantFairness(31));
    assertArrayEquals(new long[] {0, 0, 0, 0, 6}, snapshot.priorityFairness());
  }

  @Test
  void freshControlBlockHasColdCounters() {
    ControlSnapshot snapshot = ControlSnapshot.decode(control(7));
    assertFalse(snapshot.shutdown());
    assertEquals(0, snapshot.metricCount());
    assertArrayEquals(new long[32], snapshot.tenantFairness());
  }

  @Test
  void needsAtLeast640BytesInWholeWords() {
    ControlSnapshot out = new ControlSnapshot();
    ControlSnapshot.tryDecodeInto(new byte[640], out);
    ControlSnapshot.tryDecodeInto(new byte[644], out);
    PipelineException short636 = assertThrows(PipelineException.class, () -> ControlSnapshot.tryDecodeInto(new byte[636], out));
    assertEquals("megakernel control snapshot has 636 bytes, expected at least 640 and 4-byte alignment. "
        + "Fix: capture the full control buffer.", short636.fields().get("message"));
    assertThrows(PipelineException.class, () -> ControlSnapshot.tryDecodeInto(new byte[642], out));
  }

  @Test
  void strictDecodeLeavesOutputUntouchedOnError() {
    byte[] control = control();
    setWord(control, ControlLayout.DONE_COUNT, 3);
    ControlSnapshot out = ControlSnapshot.decode(control);
    assertThrows(PipelineException.class, () -> ControlSnapshot.tryDecodeInto(new byte[100], out));
    assertEquals(3, out.doneCount());
  }

  @Test
  void lenientDecodeThrowsVyresPanicText() {
    PipelineException error = assertThrows(PipelineException.class, () -> ControlSnapshot.decode(new byte[8]));
    assertTrue(error.getMessage().startsWith("backend error: megakernel control telemetry decode failed: backend error: "
        + "megakernel control snapshot has 8 bytes"));
    assertTrue(error.getMessage().endsWith("Fix: capture the full control buffer before telemetry decode."));
  }

  @Test
  void decodeIntoOverwritesPreviousMetrics() {
    byte[] control = control();
    setWord(control, ControlLayout.metricWord(4), 1);
    ControlSnapshot out = ControlSnapshot.decode(control);
    ControlSnapshot.decodeInto(control(), out);
    assertEquals(0, out.metricCount());
    assertThrows(IndexOutOfBoundsException.class, () -> out.metric(0));
  }

  @Property(tries = 300)
  void arbitraryBuffersGiveOnlyTypedErrors(@ForAll @Size(max = 700) byte[] control) {
    try {
      ControlSnapshot.tryDecodeInto(control, new ControlSnapshot());
      assertTrue(control.length >= 640 && control.length % 4 == 0);
    } catch (PipelineException e) {
      assertTrue(control.length < 640 || control.length % 4 != 0);
    }
  }
}

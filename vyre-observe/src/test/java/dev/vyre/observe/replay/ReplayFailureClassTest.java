package dev.vyre.observe.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.driver.error.RetryClass;
import org.junit.jupiter.api.Test;

/** docs/PROTOCOL.md, "Replay log": failure class codes and the mapping from the retry class. */
class ReplayFailureClassTest {

  @Test
  void codesAreVyres() {
    assertEquals(0, ReplayFailureClass.None.code());
    assertEquals(1, ReplayFailureClass.DeviceLoss.code());
    assertEquals(2, ReplayFailureClass.TransientQueue.code());
    assertEquals(3, ReplayFailureClass.ProgramBug.code());
    assertEquals(4, ReplayFailureClass.Unclassified.code());
    for (ReplayFailureClass failureClass : ReplayFailureClass.values()) {
      assertEquals(failureClass, ReplayFailureClass.decode(failureClass.code()));
    }
    assertEquals(ReplayFailureClass.Unclassified, ReplayFailureClass.decode(5));
    assertEquals(ReplayFailureClass.Unclassified, ReplayFailureClass.decode(-1));
  }

  @Test
  void mapsTheRetryClass() {
    assertEquals(ReplayFailureClass.DeviceLoss, ReplayFailureClass.of(RetryClass.NewDevice));
    assertEquals(ReplayFailureClass.TransientQueue, ReplayFailureClass.of(RetryClass.SameDevice));
    assertEquals(ReplayFailureClass.ProgramBug, ReplayFailureClass.of(RetryClass.Never));
    assertEquals(ReplayFailureClass.Unclassified, ReplayFailureClass.of(null));
  }
}

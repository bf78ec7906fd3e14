package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.reference.ReferenceBackend;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.wire.Opcodes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LiveDashboardTest {

  private static Megakernel kernel() {
    return Megakernel.builder().backend(new ReferenceBackend()).slots(16).workers(1).bootstrap();
  }

  @Test
  void printsOneLinePerSampleAndAFinalOneWhenNotATerminal() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (Megakernel kernel = kernel();
        LiveDashboard dashboard = LiveDashboard.start(kernel, 1L, new PrintStream(bytes, true, StandardCharsets.UTF_8), false)) {
      long ticket = kernel.publish(0, Priority.NORMAL, Opcodes.NOP);
      assertTrue(kernel.await(ticket, Duration.ofSeconds(30)));
      dashboard.close();
      String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
      String last = lines[lines.length - 1];
      assertTrue(last.startsWith("vyre reference #"), last);
      assertTrue(last.contains(" done=1 ") && last.endsWith(" ok"), last);
      dashboard.close();
      assertEquals(lines.length, bytes.toString(StandardCharsets.UTF_8).split("\n").length, "close is idempotent");
    }
  }

  @Test
  void rewritesOneLineOnATerminal() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (Megakernel kernel = kernel()) {
      LiveDashboard.start(kernel, 1000L, new PrintStream(bytes, true, StandardCharsets.UTF_8), true).close();
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.startsWith("\rvyre reference #") && text.endsWith("\u001b[K" + System.lineSeparator()), text);
  }

  @Test
  void withoutAnIntervalItDoesNothing() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (Megakernel kernel = kernel()) {
      LiveDashboard.start(kernel, null, new PrintStream(bytes), true).close();
      assertThrows(InputException.class, () -> LiveDashboard.start(kernel, 0L, new PrintStream(bytes), true));
    }
    assertEquals(0, bytes.size());
  }
}

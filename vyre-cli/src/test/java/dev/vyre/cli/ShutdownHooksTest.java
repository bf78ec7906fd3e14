package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.observe.replay.RingLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A signal that comes before a command registered its shutdown hook: the JVM refuses the hook ("Shutdown in
 * progress"), and the command must stop as the signal asks, not fail with an unexpected error. Provoked
 * deterministically: each command runs inside a shutdown hook of a child JVM ({@link CommandInShutdownHook}),
 * where every new hook is refused as it is once a signal arrived.
 */
class ShutdownHooksTest {

  @TempDir
  Path dir;

  @Test
  void aRecordedRunPublishesNothingAndLeavesAnEmptyLog() throws Exception {
    Path program = Files.writeString(dir.resolve("p.vslot"), "NOP\nNOP\n");
    Path log = dir.resolve("run.vrrl");
    String[] out = inShutdownHook("run", "--backend", "reference", "--record", log.toString(), program.toString());
    assertEquals("status " + ShutdownHooks.INTERRUPTED_STATUS, out[0]);
    assertEquals("", out[1]);
    assertEquals(0, RingLog.read(log).records().size(), "no record: nothing was published");
  }

  @Test
  void aServiceClosesBeforeItServesAnyone() throws Exception {
    Path socket = dir.resolve("service").resolve("s");
    String[] out = inShutdownHook("serve", "--backend", "reference", "--socket", socket.toString());
    assertEquals("status " + ShutdownHooks.INTERRUPTED_STATUS, out[0]);
    // Only the boot lines of the launch policy and the promotion loop: no error, and no "listening".
    assertTrue(out[1].lines().allMatch(line -> line.startsWith("vyre serve: policy: ")
        || line.startsWith("vyre serve: promotion: ")), out[1]);
    assertFalse(Files.exists(socket), "the socket is removed");
  }

  @Test
  void aScanPrintsNothing() throws Exception {
    Path file = Files.writeString(dir.resolve("f.txt"), "needle\n");
    String[] out = inShutdownHook("scan", "--backend", "reference", "needle", file.toString());
    assertEquals("status " + ShutdownHooks.INTERRUPTED_STATUS, out[0]);
    assertEquals("", out[1]);
  }

  /** Runs {@code vyre ARGS} in a child JVM's shutdown hook; returns its stdout and stderr, stripped. */
  private String[] inShutdownHook(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(ReplayLogDrills.vyre(args));
    command.set(command.indexOf(VyreCommand.class.getName()), CommandInShutdownHook.class.getName());
    Path out = dir.resolve("out");
    Path err = dir.resolve("err");
    ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("VYRE_SERVICE", "off");
    Process child = builder.start();
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not exit");
    assertEquals(0, child.exitValue(), Files.readString(err));
    return new String[] {Files.readString(out).strip(), Files.readString(err).strip()};
  }
}

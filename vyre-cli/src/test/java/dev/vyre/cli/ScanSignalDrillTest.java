package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drill (issue #25): {@code vyre scan} in a child JVM on a tree with many matches, stopped with
 * SIGINT (Ctrl-C) or SIGTERM at a random point, trial after trial. Whenever the signal lands (while
 * the JVM starts, while the tree is walked, while matches are printed, while the kernels close),
 * stdout must hold the lines of a whole scan's output up to a line's end, or nothing: never part of
 * a line. The exit status must be the signal's (130 for SIGINT, 143 for SIGTERM, as a shell reports
 * grep killed by them), or the scan's own when it ended first with its whole output; stderr stays
 * empty. Most signals are sent once stdout holds a random number of bytes, so they land inside the
 * printing whatever the machine's load; the rest at a random time after the start. A signal that
 * lands while the JVM itself is still starting may make the JDK print its own message (see
 * {@link #jdkStartFailure}); such a trial is counted apart, not failed.
 *
 * <p>{@code -Dvyre.drill.signalTrials=N} runs N trials (default {@link #DEFAULT_TRIALS}), SIGINT
 * and SIGTERM in turn; {@code -Dvyre.drill.seed=S} repeats a failed drill, whose message gives its
 * seed.
 */
class ScanSignalDrillTest {

  static final int DEFAULT_TRIALS = 6;
  private static final int DIRECTORIES = 4;
  private static final int FILES_PER_DIRECTORY = 10;
  /** Lines of each file, each holding one match: 800,000 lines of output, about 25 MB. */
  private static final int LINES_PER_FILE = 20_000;
  /** Small chunks, so that matches are printed while the scan goes on rather than in a burst at its end. */
  private static final String CHUNK_BYTES = "65536";
  /**
   * Half the signals sent at a byte count wait for one among the output's last bytes: the last ones
   * are printed as the scan ends, while its kernels close and it exits.
   */
  private static final int TAIL_BYTES = 1 << 17;
  /** The most a child may take to start and print, however loaded the machine. */
  private static final long TIMEOUT_MS = 120_000;
  /** Of the trials, those signalled at a random time after the start rather than at a byte count. */
  private static final double TIMED_SHARE = 0.25;
  /** Timed signals land this long after the start at most: past the JVM's start, the walk and the first matches. */
  private static final long MOST_DELAY_MS = 2_000;

  private enum Signal {
    INT(130), TERM(143);

    final int status;

    Signal(int status) {
      this.status = status;
    }
  }

  @TempDir Path dir;

  @Test
  void aSignalledScanLeavesWholeLinesOrNothingAndTheSignalsStatus() throws Exception {
    List<String> launcher = launcher();
    int trials = Integer.getInteger("vyre.drill.signalTrials", DEFAULT_TRIALS);
    long seed = Long.getLong("vyre.drill.seed", System.nanoTime());
    Path tree = tree(dir.resolve("tree"));
    List<String> scan = List.of("scan", "--backend", "reference", "--chunk-size", CHUNK_BYTES, "-r", "ab", tree.toString());
    CliRun whole = CliRun.of(scan.toArray(String[]::new));
    assertEquals(0, whole.status(), whole.err());
    byte[] expected = whole.out().getBytes(StandardCharsets.UTF_8);
    assertEquals((long) DIRECTORIES * FILES_PER_DIRECTORY * LINES_PER_FILE, whole.out().lines().count());
    long started = System.nanoTime();
    int[] outcomes = new int[4];
    for (int trial = 0; trial < trials; trial++) {
      // SplittableRandom mixes its seed: Random's first values from seeds one apart are nearly alike.
      SplittableRandom random = new SplittableRandom(seed + trial);
      Signal signal = Signal.values()[trial % 2];
      boolean timed = random.nextDouble() < TIMED_SHARE;
      long point = timed ? random.nextLong(MOST_DELAY_MS + 1) : random.nextBoolean() ? random.nextLong(expected.length + 1)
          : expected.length - random.nextLong(Math.min(expected.length, TAIL_BYTES) + 1);
      String context = "trial " + trial + " of seed " + seed + " (-Dvyre.drill.seed=" + seed + "), SIG" + signal + " "
          + (timed ? point + " ms after the start" : "once stdout held " + point + " bytes");
      Path out = dir.resolve("trial-" + trial + ".out");
      Path err = dir.resolve("trial-" + trial + ".err");
      List<String> command = new ArrayList<>(launcher);
      command.addAll(ReplayLogDrills.vyre(scan.toArray(String[]::new)));
      ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
      builder.environment().put("VYRE_SERVICE", "off");
      Process child = builder.start();
      try {
        boolean sent = timed ? signalAfter(child, signal, point) : signalAtBytes(child, signal, out, point, context);
        assertTrue(child.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS), context + ": the scan outlived the signal");
        int status = child.exitValue();
        byte[] printed = Files.readAllBytes(out);
        String stderr = Files.readString(err);
        String report = context + ": exit " + status + ", " + printed.length + " of " + expected.length + " bytes, stderr: "
            + stderr;
        if (printed.length == 0 && jdkStartFailure(stderr, signal, status)) {
          outcomes[3]++;
          continue;
        }
        assertEquals("", stderr, report);
        assertTrue(printed.length <= expected.length, report);
        assertArrayEquals(Arrays.copyOf(expected, printed.length), printed, report + ": not what the whole scan prints");
        assertTrue(printed.length == 0 || printed[printed.length - 1] == '\n', report + ": ends inside a line");
        boolean complete = printed.length == expected.length;
        if (sent && status == signal.status) {
          outcomes[printed.length == 0 ? 0 : complete ? 2 : 1]++;
        } else if (complete && status == whole.status()) {
          outcomes[2]++;
        } else {
          fail(report + ": expected exit " + signal.status + (complete ? " or " + whole.status() : ""));
        }
      } finally {
        child.destroyForcibly();
      }
    }
    System.out.printf("ScanSignalDrillTest: %d trials (seed %d) in %.1f s: %d stopped before printing, %d part-way with"
        + " whole lines, %d with the whole output, %d while the JVM started (the JDK's own message)%n", trials, seed,
        (System.nanoTime() - started) / 1e9, outcomes[0], outcomes[1], outcomes[2], outcomes[3]);
  }

  /**
   * Whether the JDK itself failed on a signal that came while the JVM was still starting, before
   * vyre's code ran: a trivial class shows the same. Its exit logging finds no module for its
   * caller and says so (with the signal's status), or the VM's start-up fails outright (status 1).
   */
  private static boolean jdkStartFailure(String stderr, Signal signal, int status) {
    boolean exitLogging = stderr.startsWith("Runtime.exit(" + signal.status + ") logging failed: ")
        && stderr.lines().count() == 1 && status == signal.status;
    boolean vmStart = stderr.startsWith("Error occurred during initialization of VM") && status == 1;
    return exitLogging || vmStart;
  }

  /** {@link #LINES_PER_FILE} lines of one match each, in every file. */
  private static Path tree(Path root) throws IOException {
    byte[] text = "ab cd\n".repeat(LINES_PER_FILE).getBytes(StandardCharsets.US_ASCII);
    for (int d = 0; d < DIRECTORIES; d++) {
      Path directory = Files.createDirectories(root.resolve("d" + d));
      for (int f = 0; f < FILES_PER_DIRECTORY; f++) {
        Files.write(directory.resolve("f" + f + ".txt"), text);
      }
    }
    return root;
  }

  /**
   * What starts the child with SIGINT and SIGTERM at their defaults: a process started in the
   * background of a script inherits SIGINT ignored, and a JVM leaves an ignored signal ignored.
   */
  private static List<String> launcher() throws IOException, InterruptedException {
    List<String> env = List.of("env", "--default-signal=INT,TERM");
    Process probe = new ProcessBuilder("env", "--default-signal=INT,TERM", "true").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (probe.waitFor() == 0) {
      return env;
    }
    String ignored = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(line -> line.startsWith("SigIgn:"))
        .findFirst().orElse("SigIgn: 0").substring("SigIgn:".length()).trim();
    long mask = Long.parseUnsignedLong(ignored, 16);
    // Bits 1 and 14 are SIGINT (2) and SIGTERM (15).
    assumeTrue((mask & (1L << 1 | 1L << 14)) == 0, "SIGINT or SIGTERM is ignored in this JVM and env cannot reset them");
    return List.of();
  }

  /** Sends the signal {@code delayMs} after the start, unless the child ended first; returns whether it sent it. */
  private static boolean signalAfter(Process child, Signal signal, long delayMs) throws IOException, InterruptedException {
    return !child.waitFor(delayMs, TimeUnit.MILLISECONDS) && send(child, signal);
  }

  /** Sends the signal once {@code out} holds {@code bytes} bytes, unless the child ended first; returns whether it sent it. */
  private static boolean signalAtBytes(Process child, Signal signal, Path out, long bytes, String context)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
    while (child.isAlive() && Files.size(out) < bytes) {
      if (System.nanoTime() > deadline) {
        fail(context + ": the child did not print " + bytes + " bytes in " + TIMEOUT_MS + " ms");
      }
      Thread.sleep(1);
    }
    return child.isAlive() && send(child, signal);
  }

  private static boolean send(Process child, Signal signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-s", signal.name(), String.valueOf(child.pid())).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    // kill fails only when the child has already exited: the signal was not sent.
    return kill.waitFor() == 0;
  }
}

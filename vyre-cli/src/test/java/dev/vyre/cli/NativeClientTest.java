package dev.vyre.cli;

import static dev.vyre.cli.FileTimes.touch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.cli.serve.ScanService;
import dev.vyre.cli.serve.ServiceClient;
import dev.vyre.cli.serve.ServiceProtocol;
import dev.vyre.runtime.Megakernel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vyre-client}, the launcher's client of {@code vyre serve} without a JVM: built from its C
 * source with the machine's C compiler, run against a service on the reference backend, it prints
 * and exits as a scan alone does, and leaves what it cannot serve (exit 250) to the JVM.
 */
class NativeClientTest {

  private static final Path SOURCE = Path.of("src/main/c/vyre-client.c");
  private static final int NOT_SERVED = 250;

  @TempDir static Path dir;
  private static Path client;
  private static Path socket;
  private static Path tree;
  private static Megakernel kernel;
  private static ScanService service;
  private static Thread serving;

  @BeforeAll
  static void start() throws Exception {
    client = dir.resolve("vyre-client");
    Process cc;
    try {
      cc = new ProcessBuilder("cc", "-O2", "-Wall", "-Werror", "-o", client.toString(), SOURCE.toString())
          .redirectErrorStream(true).start();
    } catch (IOException noCompiler) {
      Assumptions.abort("no C compiler (cc) here: the launcher then uses the JVM's client");
      return;
    }
    String log = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, cc.waitFor(), log);
    tree = Files.createDirectories(dir.resolve("tree"));
    for (int f = 0; f < 30; f++) {
      StringBuilder text = new StringBuilder();
      for (int line = 0; line < 50 + 37 * f; line++) {
        text.append(line % 7 == 0 ? "error: String value;\n" : "int x" + line + ";\n");
      }
      Files.writeString(Files.createDirectories(tree.resolve("d" + f % 3)).resolve("f" + f + ".txt"), text);
    }
    socket = dir.resolve("run").resolve("scan.sock");
    kernel = ServedScans.serviceKernel(Runtime.getRuntime().availableProcessors());
    service = new ScanService(kernel, socket, 2, VersionInfo.buildId(), new PrintStream(new ByteArrayOutputStream(), true));
    serving = Thread.ofPlatform().start(() -> service.serve(null));
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (service != null) {
      service.close();
      serving.join(Duration.ofSeconds(30));
    }
  }

  private record Run(int status, String out, String err) {}

  private static Run client(String build, String... args) throws Exception {
    return client(Map.of(), build, args);
  }

  private static Run client(Map<String, String> environment, String build, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(client.toString(), build, socket.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    builder.environment().putAll(environment);
    Process process = builder.start();
    // Small outputs: reading one stream to its end first cannot fill the other's pipe.
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    return new Run(process.exitValue(), out, err);
  }

  /**
   * The launcher's stale-jar check, in the client: a pom or a main source newer than the jar leaves
   * the scan (exit 250, nothing sent); tests, build outputs and hidden files newer than it do not.
   */
  @Test
  void aMainSourceOrPomNewerThanTheJarLeavesTheScanToTheLauncher() throws Exception {
    Path sources = dir.resolve("sources");
    Path jar = touch(sources.resolve("vyre-cli/target/vyre.jar"), Instant.now().minusSeconds(60));
    touch(sources.resolve("vyre-cli/src/test/java/ATest.java"), Instant.now());
    touch(sources.resolve("vyre-bench/target/generated-sources/B.java"), Instant.now());
    touch(sources.resolve("vyre-cli/src/main/java/.A.java.swp"), Instant.now());
    Path source = touch(sources.resolve("vyre-cli/src/main/java/A.java"), Instant.now().minusSeconds(120));
    // Last: creating the files above made their directories new.
    touch(sources.resolve("vyre-cli/src/main/java"), Instant.now().minusSeconds(120));
    touch(sources.resolve("vyre-cli/src/main"), Instant.now().minusSeconds(120));
    Map<String, String> environment = Map.of("VYRE_SOURCES", sources.toString(), "VYRE_JAR", jar.toString());
    String path = tree.toString();
    Run current = client(environment, VersionInfo.buildId(), "-c", "-e", "error", path);
    assertEquals(CliRun.of("scan", "--no-server", "-c", "-e", "error", path).out(), current.out());

    touch(source, Instant.now());
    Run stale = client(environment, VersionInfo.buildId(), "--verbose", "-c", "-e", "error", path);
    assertEquals(NOT_SERVED, stale.status());
    assertEquals("", stale.out());
    assertTrue(stale.err().contains("are newer than " + jar), stale.err());

    touch(source, Instant.now().minusSeconds(120));
    touch(sources.resolve("vyre-io/pom.xml"), Instant.now());
    assertEquals(NOT_SERVED, client(environment, VersionInfo.buildId(), "-c", "-e", "error", path).status());
  }

  @Test
  void printsAndExitsAsTheScanAlone() throws Exception {
    String path = tree.toString();
    for (List<String> args : List.of(List.of("-e", "error", path), List.of("-c", "-e", "String", "-e", "x1", path),
        List.of("-l", "-e", "x4", path), List.of("-L", "-e", "x40", path), List.of("-e", "absent", path),
        List.of("-n", "-w", "-e", "error", path), List.of("--json", "-m", "2", "-e", "value", path),
        List.of("-e", "x", tree.resolve("d1").toString()), List.of("-e", "x", dir.resolve("missing").toString()))) {
      List<String> alone = new ArrayList<>(List.of("scan", "--no-server"));
      alone.addAll(args);
      CliRun expected = CliRun.of(alone.toArray(String[]::new));
      Run served = client(VersionInfo.buildId(), args.toArray(String[]::new));
      assertEquals(new Run(expected.status(), expected.out(), expected.err()), served, String.join(" ", args));
    }
  }

  @Test
  void leavesToTheJvmWhatTheServiceDoesNotTake() throws Exception {
    assertEquals(NOT_SERVED, client("another build", "-e", "x", tree.toString()).status());
    assertEquals(NOT_SERVED, client(VersionInfo.buildId(), "--task-size", "4096", "-e", "x", tree.toString()).status());
    // Bytes that are not UTF-8: the JVM's client sends them in its own escaped form.
    Process invalid = new ProcessBuilder("bash", "-c", "exec \"$0\" \"$1\" \"$2\" -e $'\\xff' \"$3\"", client.toString(),
        VersionInfo.buildId(), socket.toString(), tree.toString()).start();
    assertEquals(NOT_SERVED, invalid.waitFor());
    // No service listening.
    List<String> command = List.of(client.toString(), VersionInfo.buildId(), dir.resolve("none.sock").toString(), "-e", "x");
    assertEquals(NOT_SERVED, new ProcessBuilder(command).start().waitFor());
  }

  @Test
  void itsConstantsAreTheProtocolsOwn() throws Exception {
    Map<String, Long> defined = new HashMap<>();
    Matcher define = Pattern.compile("(?m)^#define VYRE_(\\w+) (0x[0-9A-Fa-f]+|\\d+)$").matcher(Files.readString(SOURCE));
    while (define.find()) {
      defined.put(define.group(1), Long.decode(define.group(2)));
    }
    Map<String, Long> expected = new HashMap<>();
    for (Field field : ServiceProtocol.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
        expected.put(field.getName(), (long) field.getInt(null));
      }
    }
    for (String name : List.of("MAGIC", "VERSION", "SCAN", "STDOUT_TERMINAL", "STDERR_TERMINAL", "STDIN_DATA",
        "MAX_FRAME_BYTES")) {
      assertEquals(expected.get(name), defined.get(name), name);
    }
    for (String frame : List.of("STDOUT", "STDERR", "EXIT", "DECLINED", "ERROR")) {
      assertEquals(expected.get(frame), defined.get("FRAME_" + frame), frame);
    }
    assertEquals(ServiceClient.CLOSED_OUTPUT_STATUS, defined.get("CLOSED_OUTPUT_STATUS").intValue());
  }

}

package dev.vyre.cli;

import static dev.vyre.cli.FileTimes.touch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./vyre} launcher script, run against a stub JDK that reports what it was given and a stub Maven. */
class LauncherTest {

  @TempDir Path dir;

  /** A repository root holding the launcher, with a stub JDK that prints the locale it was given. */
  private Path root() throws IOException {
    Path root = dir.resolve("root");
    Files.createDirectories(root.resolve("vyre-cli/target"));
    Files.copy(Path.of("..", "vyre"), root.resolve("vyre"), StandardCopyOption.REPLACE_EXISTING);
    Path java = dir.resolve("jdk/bin/java");
    Files.createDirectories(java.getParent());
    Files.writeString(java, """
        #!/bin/sh
        if [ "$1" = -version ]; then echo 'openjdk version "25" 2025-09-16' >&2; exit 0; fi
        echo "${LC_ALL:-}|${LC_CTYPE:-}|${LANG:-}"
        """);
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return root;
  }

  /** A repository root holding the launcher and a jar built a minute ago. */
  private Path rootWithJar() throws IOException {
    Path root = dir.resolve("root");
    Files.createDirectories(root.resolve("vyre-cli/target"));
    Files.copy(Path.of("..", "vyre"), root.resolve("vyre"), StandardCopyOption.REPLACE_EXISTING);
    touch(root.resolve("vyre-cli/target/vyre.jar"), Instant.now().minusSeconds(60));
    return root;
  }

  /** The stub JDK's java, running {@code script}. */
  private Path stubJava(String script) throws IOException {
    Path java = dir.resolve("jdk/bin/java");
    Files.createDirectories(java.getParent());
    Files.writeString(java, script);
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return java;
  }

  private Process launch(Path root, Map<String, String> env) throws IOException {
    return launch(root, env, List.of("doctor"));
  }

  private Process launch(Path root, Map<String, String> env, List<String> args) throws IOException {
    List<String> command = new ArrayList<>(List.of("bash", root.resolve("vyre").toString()));
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.startsWith("LC_") || name.equals("LANG"));
    builder.environment().putAll(env);
    builder.environment().put("JAVA_HOME", dir.resolve("jdk").toString());
    // The ahead-of-time cache's background maker would run the stub JDK while a test rewrites it.
    builder.environment().putIfAbsent("VYRE_AOT", "off");
    return builder.start();
  }

  /** Exit status, stdout and stderr of one launcher run. */
  private record Launch(int status, String out, String err) {}

  private static Launch finish(Process process) throws IOException, InterruptedException {
    process.getOutputStream().close();
    // Small outputs: reading one stream to its end first cannot fill the other's pipe.
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Launch(process.waitFor(), out, err);
  }

  /** The locale the launcher runs Java under, given {@code env}. */
  private String javaLocale(Map<String, String> env) throws IOException, InterruptedException {
    Path root = root();
    Files.writeString(root.resolve("vyre-cli/target/vyre.jar"), "");
    Launch launch = finish(launch(root, env));
    assertEquals(0, launch.status(), launch.out() + launch.err());
    return launch.out().strip();
  }

  /** A stub ./mvnw that counts its calls, prints Maven-like lines, takes a second and writes the jar (or fails). */
  private static void stubMaven(Path root, boolean fails) throws IOException {
    Path mvnw = root.resolve("mvnw");
    Files.writeString(mvnw, """
        #!/bin/sh
        echo call >> mvnw-calls
        echo '[INFO] Scanning for projects...'
        echo '[INFO] Building vyre-cli 0.1.0-SNAPSHOT                                   [1/1]'
        echo '[INFO] --- maven-compiler-plugin:3.13.0:compile (default-compile) @ vyre-cli ---'
        sleep 1
        """ + (fails ? """
        echo '[ERROR] /src/main/java/A.java:[1,1] class, interface, enum, or record expected'
        echo '[INFO] BUILD FAILURE'
        exit 1
        """ : """
        echo jar > vyre-cli/target/vyre.jar
        echo '[INFO] BUILD SUCCESS'
        """));
    Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static long mavenCalls(Path root) throws IOException {
    Path calls = root.resolve("mvnw-calls");
    return Files.exists(calls) ? Files.readAllLines(calls).size() : 0;
  }

  /** What `printf %s TEXT | cksum | cut -d' ' -f1` prints, as the launcher names its caches. */
  private static String cksum(String text) throws IOException, InterruptedException {
    Process cksum = new ProcessBuilder("cksum").start();
    try (var in = cksum.getOutputStream()) {
      in.write(text.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(cksum.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    cksum.waitFor();
    return out.split(" ")[0];
  }

  @Test
  void onlyPomsAndMainSourcesNewerThanTheJarRebuildIt() throws Exception {
    Path root = root();
    stubMaven(root, false);
    Instant now = Instant.now();
    touch(root.resolve("vyre-cli/target/vyre.jar"), now.minusSeconds(60));
    touch(root.resolve("vyre-cli/src/main/java/A.java"), now.minusSeconds(120));
    touch(root.resolve("vyre-cli/src/main/java"), now.minusSeconds(120));
    touch(root.resolve("vyre-cli/src/main"), now.minusSeconds(120));
    // Generated sources under any target/ (vyre-bench's), tests and hidden directories are no inputs of the jar.
    touch(root.resolve("vyre-bench/target/generated-sources/annotations/B.java"), now);
    touch(root.resolve("vyre-cli/src/test/java/ATest.java"), now);
    touch(root.resolve(".git/index"), now);
    Launch untouched = finish(launch(root, Map.of()));
    assertEquals(0, untouched.status(), untouched.err());
    assertEquals("", untouched.err());
    assertEquals(0, mavenCalls(root));

    touch(root.resolve("vyre-cli/src/main/java/A.java"), now);
    Launch changed = finish(launch(root, Map.of()));
    assertEquals(0, changed.status(), changed.err());
    assertEquals(1, mavenCalls(root));
    // Progress on stderr: the build's module lines, not its plugin chatter; stdout is the command's alone.
    assertTrue(changed.err().startsWith("vyre: building "), changed.err());
    assertTrue(changed.err().contains("[INFO] Building vyre-cli 0.1.0-SNAPSHOT"), changed.err());
    assertTrue(changed.err().contains("[INFO] BUILD SUCCESS"), changed.err());
    assertFalse(changed.err().contains("maven-compiler-plugin"), changed.err());
    assertFalse(changed.err().contains("\u001b"), changed.err());
    assertEquals("C.UTF-8||", changed.out().strip());

    Launch again = finish(launch(root, Map.of()));
    assertEquals("", again.err());
    assertEquals(1, mavenCalls(root), "built once, not on every call");

    touch(root.resolve("vyre-io/pom.xml"), Instant.now().plusSeconds(5));
    finish(launch(root, Map.of()));
    assertEquals(2, mavenCalls(root), "a pom is an input");
  }

  @Test
  void twoCallsAtOnceBuildOnce() throws Exception {
    Assumptions.assumeTrue(new ProcessBuilder("sh", "-c", "command -v flock").start().waitFor() == 0, "no flock here");
    Path root = root();
    stubMaven(root, false);
    Process first = launch(root, Map.of());
    Thread.sleep(300);
    Process second = launch(root, Map.of());
    List<Launch> launches = List.of(finish(first), finish(second));
    for (Launch launch : launches) {
      assertEquals(0, launch.status(), launch.err());
      assertEquals("C.UTF-8||", launch.out().strip());
    }
    assertEquals(1, mavenCalls(root), "the second call waits for the first call's build and uses it");
    assertTrue(launches.stream().anyMatch(l -> l.err().contains("waiting for another vyre call to finish building")),
        launches.toString());
  }

  @Test
  void aFailedBuildShowsItsErrorsAndExitsTwo() throws Exception {
    Path root = root();
    stubMaven(root, true);
    Launch failed = finish(launch(root, Map.of()));
    assertEquals(2, failed.status(), failed.err());
    assertEquals("", failed.out(), "the command does not run");
    assertTrue(failed.err().contains("[ERROR] /src/main/java/A.java:[1,1]"), failed.err());
    assertTrue(failed.err().strip().endsWith("vyre: the build failed (exit 1). Fix: see the errors above and "
        + root.toAbsolutePath().resolve("target/vyre-build.log")), failed.err());
  }

  @Test
  void javaRunsUnderAUtf8LocaleSoEveryFileNameCanBeOpened() throws Exception {
    // Under LANG=C Java decoded file names as ASCII: vyre scan could not open café.txt ("No such file").
    assertEquals("C.UTF-8||", javaLocale(Map.of()));
    assertEquals("C.UTF-8||C", javaLocale(Map.of("LANG", "C")));
    assertEquals("C.UTF-8||", javaLocale(Map.of("LC_ALL", "POSIX")));
  }

  @Test
  void aUtf8LocaleIsLeftAlone() throws Exception {
    assertEquals("||en_US.UTF-8", javaLocale(Map.of("LANG", "en_US.UTF-8")));
    assertEquals("C.utf8||", javaLocale(Map.of("LC_ALL", "C.utf8")));
    assertEquals("|C.UTF-8|C", javaLocale(Map.of("LC_CTYPE", "C.UTF-8", "LANG", "C")));
  }

  /**
   * After a build the first call runs plainly and leaves a background maker that records a scan of the
   * examples and creates the ahead-of-time cache; a later call maps the cache.
   */
  @Test
  void theFirstCallMakesTheAheadOfTimeCacheAndLaterCallsUseIt() throws Exception {
    Path root = rootWithJar();
    // Logs each call's AOT options; a recording writes its configuration, a creation its cache.
    Path java = stubJava("""
        #!/bin/sh
        if [ "$1" = -version ]; then echo 'openjdk version "25" 2025-09-16' >&2; exit 0; fi
        log=$(dirname "$0")/calls
        for a in "$@"; do
          case "$a" in
            -XX:AOTMode=*|-XX:AOTCache=*) echo "$a" | sed 's|=.*/|=|' >> "$log" ;;
            -XX:AOTConfiguration=*) conf=${a#*=} ;;
          esac
          case "$a" in -XX:AOTCache=*) cache=${a#*=} ;; esac
        done
        case "$*" in
          *AOTMode=record*) echo recorded > "$conf" ;;
          *AOTMode=create*) echo cache > "$cache" ;;
          *) echo ran ;;
        esac
        """);
    Map<String, String> on = Map.of("VYRE_AOT", "on");
    // The mark of a maker that was killed part way, naming a process that is gone, is taken back at once.
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path mark = Files.createDirectories(root.resolve("vyre-cli/target/vyre-" + cksum(java.toString()) + ".making"));
    Files.writeString(mark.resolve("pid"), gone.pid() + "\n");
    Launch first = finish(launch(root, on));
    assertEquals(new Launch(0, "ran\n", ""), first);
    Path log = java.resolveSibling("calls");
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!(Files.exists(log) && Files.readAllLines(log).size() >= 3) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    String cache = Files.readAllLines(log).get(2);
    assertEquals(List.of("-XX:AOTMode=record", "-XX:AOTMode=create", cache), Files.readAllLines(log));
    assertTrue(cache.startsWith("-XX:AOTCache=vyre-") && cache.endsWith(".aot.new"), cache);
    while (Files.exists(root.resolve("vyre-cli/target").resolve(cache.substring("-XX:AOTCache=".length(),
        cache.length() - ".aot.new".length()) + ".making")) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    Launch second = finish(launch(root, on));
    assertEquals(new Launch(0, "ran\n", ""), second);
    assertEquals(cache.substring(0, cache.length() - 4), Files.readAllLines(log).getLast(), "the second call maps the cache");
  }

  /**
   * A scan that a running service will take maps the client's cache, anything else the one-shot
   * cache; the JDK's version comes from its release file, without starting a JVM to ask.
   */
  @Test
  void aScanForARunningServiceMapsTheClientsCache() throws Exception {
    Path root = rootWithJar();
    Path java = stubJava("""
        #!/bin/sh
        if [ "$1" = -version ]; then echo 'asked for its version' >&2; exit 1; fi
        for a in "$@"; do case "$a" in -XX:AOTCache=*) echo "${a##*/}" ;; esac; done
        """);
    Files.writeString(dir.resolve("jdk/release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"25.0.3\"\n");
    Process sum = new ProcessBuilder("bash", "-c", "printf %s \"$1\" | cksum | cut -d' ' -f1", "-", java.toString()).start();
    String base = "vyre-" + new String(sum.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
    for (String cache : List.of(base + ".aot", base + "-client.aot")) {
      Files.writeString(root.resolve("vyre-cli/target").resolve(cache), "cache");
    }
    Path socket = dir.resolve("scan.sock");
    try (ServerSocketChannel service = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      service.bind(UnixDomainSocketAddress.of(socket));
      Map<String, String> env = Map.of("VYRE_AOT", "on", "VYRE_SOCKET", socket.toString());
      assertEquals(new Launch(0, base + "-client.aot\n", ""), finish(launch(root, env, List.of("scan", "-e", "x", "."))));
      assertEquals(new Launch(0, base + ".aot\n", ""),
          finish(launch(root, env, List.of("scan", "--no-server", "-e", "x", "."))));
      assertEquals(new Launch(0, base + ".aot\n", ""), finish(launch(root, env, List.of("doctor"))));
      Map<String, String> off = Map.of("VYRE_AOT", "on", "VYRE_SOCKET", socket.toString(), "VYRE_SERVICE", "off");
      assertEquals(new Launch(0, base + ".aot\n", ""), finish(launch(root, off, List.of("scan", "-e", "x", "."))));
    }
    Files.delete(socket);
    Map<String, String> gone = Map.of("VYRE_AOT", "on", "VYRE_SOCKET", socket.toString());
    assertEquals(new Launch(0, base + ".aot\n", ""), finish(launch(root, gone, List.of("scan", "-e", "x", "."))));
  }

  /**
   * A scan that a running service will take goes to vyre-client, without a JVM; what the client
   * leaves (its exit 250) runs in the JVM with the service off.
   */
  @Test
  void aServedScanRunsTheNativeClientAndTheJvmOnlyForWhatItLeaves() throws Exception {
    Path root = rootWithJar();
    Path target = root.resolve("vyre-cli/target");
    stubJava("""
        #!/bin/sh
        echo "java VYRE_SERVICE=${VYRE_SERVICE:-}"
        """);
    Files.writeString(dir.resolve("jdk/release"), "JAVA_VERSION=\"25.0.3\"\n");
    Path client = target.resolve("vyre-client");
    Files.writeString(client, """
        #!/bin/sh
        echo "client $* (sources ${VYRE_SOURCES##*/}, jar ${VYRE_JAR##*/})"
        exit $(cat "$(dirname "$0")/status")
        """);
    Files.setPosixFilePermissions(client, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(target.resolve("vyre-client.build"), "0.1 (commit abc)\n");
    Path socket = dir.resolve("scan.sock");
    try (ServerSocketChannel service = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      service.bind(UnixDomainSocketAddress.of(socket));
      Map<String, String> env = Map.of("VYRE_AOT", "on", "VYRE_SOCKET", socket.toString());
      List<String> scan = List.of("scan", "-c", "-e", "x y", ".");
      Files.writeString(target.resolve("status"), "1");
      String served = "client 0.1 (commit abc) " + socket + " -c -e x y . (sources root, jar vyre.jar)\n";
      assertEquals(new Launch(1, served, ""), finish(launch(root, env, scan)));
      Files.writeString(target.resolve("status"), "250");
      assertEquals(new Launch(0, served + "java VYRE_SERVICE=off\n", ""), finish(launch(root, env, scan)));
      // What the client leaves because a source is newer than the jar (it checks, in C) is built first.
      stubMaven(root, false);
      touch(root.resolve("vyre-cli/src/main/java/A.java"), Instant.now());
      Files.setLastModifiedTime(client, FileTime.from(Instant.now().plusSeconds(5)));
      Launch rebuilt = finish(launch(root, env, scan));
      assertEquals(0, rebuilt.status(), rebuilt.err());
      assertEquals(served + "java VYRE_SERVICE=off\n", rebuilt.out());
      assertEquals(1, mavenCalls(root));
      assertEquals(new Launch(0, "java VYRE_SERVICE=\n", ""), finish(launch(root, env, List.of("scan", "--no-server", "."))));
      assertEquals(new Launch(0, "java VYRE_SERVICE=\n", ""),
          finish(launch(root, Map.of("VYRE_AOT", "off", "VYRE_SOCKET", socket.toString()), scan)));
    }
  }
}

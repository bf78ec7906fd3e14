package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.cli.serve.ScanService;
import dev.vyre.cli.serve.ServiceClient;
import dev.vyre.cli.ServedScans.Served;
import dev.vyre.cli.serve.ServiceProtocol;
import dev.vyre.cli.serve.ServiceSocket;
import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vyre serve} end to end on the reference backend: scans through the service print exactly
 * what they print alone (every output mode, errors and exit statuses, relative paths from the
 * client's directory), several clients at once share two lanes, and a client that goes mid-scan,
 * garbage on the socket, another build and options the shared kernel cannot honour neither hurt the
 * service nor the clients after them.
 */
class ScanServiceTest {

  @TempDir Path dir;
  private Path socket;
  private Path tree;
  private ScanService service;
  private Megakernel kernel;
  private Thread serving;
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws IOException {
    tree = Files.createDirectory(dir.resolve("tree"));
    Random random = new Random(7);
    for (int f = 0; f < 40; f++) {
      Path sub = Files.createDirectories(tree.resolve("d" + f % 4));
      StringBuilder text = new StringBuilder();
      for (int line = 0; line < 5 + random.nextInt(200); line++) {
        text.append(random.nextInt(9) == 0 ? "String value = error;\n" : "int x" + line + " = " + random.nextInt() + ";\n");
      }
      Files.writeString(sub.resolve("f" + f + ".txt"), text);
    }
    socket = dir.resolve("run").resolve("scan.sock");
    kernel = ServedScans.serviceKernel(Runtime.getRuntime().availableProcessors());
    service = new ScanService(kernel, socket, 2, VersionInfo.buildId(), new PrintStream(log, true, StandardCharsets.UTF_8));
    serving = Thread.ofPlatform().start(() -> service.serve(null));
  }

  @AfterEach
  void stop() throws InterruptedException {
    service.close();
    serving.join(Duration.ofSeconds(30));
  }

  private Served served(Path workingDirectory, String... args) {
    return ServedScans.served(socket, workingDirectory, args);
  }

  private void assertSame(String... args) {
    ServedScans.assertSame(socket, dir, args);
  }

  @Test
  void aWarmUpScansItsGeneratedTreeThenDeletesIt() throws Exception {
    List<Path> before = warmUpTrees();
    service.startWarmUp(3);
    String line = awaitLog("warm-up: ");
    assertTrue(line.contains("warm-up: 3 of 3 scans of a generated tree"), line);
    assertEquals(before, warmUpTrees(), "the warm-up's tree is deleted");
    assertSame("-c", "-e", "String", tree.toString());
  }

  @Test
  void aClientsScanEndsTheWarmUpAndIsServedAsAlone() throws Exception {
    service.startWarmUp(1_000_000);
    assertSame("-e", "error", tree.toString());
    String line = awaitLog("warm-up: ");
    assertTrue(line.contains("of 1000000 scans") && line.contains("ended early"), line);
  }

  /** The log's first line holding {@code text}, waited for. */
  private String awaitLog(String text) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      for (String line : log.toString(StandardCharsets.UTF_8).split("\n")) {
        if (line.contains(text)) {
          return line;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no log line with '" + text + "' in 60 s: " + log.toString(StandardCharsets.UTF_8));
  }

  private static List<Path> warmUpTrees() throws IOException {
    try (var paths = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return paths.filter(path -> path.getFileName().toString().startsWith("vyre-serve-warm-up")).sorted().toList();
    }
  }

  @Test
  void everyOutputModePrintsWhatTheScanPrintsAlone() {
    String t = tree.toString();
    assertSame("-e", "String", "-e", "error", t);
    assertSame("-c", "-e", "String", t);
    assertSame("--json", "-e", "error", t);
    assertSame("-l", "-e", "error", t);
    assertSame("-L", "-e", "String", t);
    assertSame("-q", "-e", "String", t);
    assertSame("-m", "2", "-i", "-e", "STRING", t);
    assertSame("-e", "nowhere", t);
    assertSame("-e", "String", t, dir.resolve("missing").toString());
    assertSame("--include=f1*", "-c", "String", t);
    assertSame("-e");
    assertSame("--bogus", "x", t);
  }

  @Test
  void relativePathsAreTheClientsAndPrintAsGiven() {
    CliRun alone = ServedScans.alone("-c", "-e", "String", tree.toString());
    Served served = served(dir, "-c", "-e", "String", "tree");
    assertEquals(OptionalInt.of(0), served.status(), served.err());
    assertEquals(alone.out().replace(dir + "/", ""), served.out());
    Served missing = served(dir, "-e", "x", "nothing-here");
    assertEquals(OptionalInt.of(2), missing.status());
    assertTrue(missing.err().startsWith("vyre scan: nothing-here: No such file or directory"), missing.err());
  }

  @Test
  void concurrentClientsShareTheKernelAndEachGetsItsOwnOutput() throws Exception {
    CliRun counts = ServedScans.alone("-c", "-e", "String", tree.toString());
    CliRun lines = ServedScans.alone("-e", "error", tree.toString());
    ExecutorService clients = Executors.newFixedThreadPool(6);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < 18; i++) {
        boolean count = i % 2 == 0;
        results.add(clients.submit(() -> {
          Served served = count ? served(dir, "-c", "-e", "String", tree.toString()) : served(dir, "-e", "error", tree.toString());
          return served.status().equals(OptionalInt.of(0)) && served.out().equals(count ? counts.out() : lines.out());
        }));
      }
      for (Future<Boolean> result : results) {
        assertTrue(result.get());
      }
    } finally {
      clients.shutdown();
    }
    assertTrue(status().contains("scans: 18 served"), status());
    assertTrue(status().contains("patterns: 2 of 16 tables kept"), "two pattern sets, each compiled once or so: " + status());
  }

  @Test
  void aClientThatGoesMidScanStopsItsScanAndTheServiceGoesOn() throws Exception {
    Path big = Files.createDirectory(dir.resolve("big"));
    byte[] dense = "a".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII);
    for (int f = 0; f < 16; f++) {
      Files.write(big.resolve("f" + f), dense);
    }
    try (SocketChannel channel = ServiceSocket.connect(socket)) {
      DataOutputStream out = new DataOutputStream(Channels.newOutputStream(channel));
      ServiceProtocol.writeHeader(out, VersionInfo.buildId(), ServiceProtocol.SCAN);
      ServiceProtocol.writeScan(out, new ServiceProtocol.ScanRequest(1, 0, dir.toString().getBytes(StandardCharsets.UTF_8),
          List.of("-e", "a", big.toString())));
      out.flush();
      // One frame of the 16 M lines, then the client is gone.
      DataInputStream in = new DataInputStream(Channels.newInputStream(channel));
      assertEquals(ServiceProtocol.STDOUT, in.readUnsignedByte());
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!status().contains("1 cancelled by their client") && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(status().contains("1 cancelled by their client"), status());
    assertSame("-c", "-e", "String", tree.toString());
  }

  @Test
  void aClientWhoseOutputClosesExitsAsGrepDoesOnAClosedPipeAndItsScanStops() throws Exception {
    OutputStream closedPipe = new CliRun.FailingOutput("Broken pipe");
    OptionalInt status = ServiceClient.scan(socket, List.of("-e", "int", tree.toString()), VersionInfo.buildId(), 0, dir,
        closedPipe, new ByteArrayOutputStream());
    assertEquals(OptionalInt.of(ServiceClient.CLOSED_OUTPUT_STATUS), status);
    assertEquals(141, ServiceClient.CLOSED_OUTPUT_STATUS, "a shell's status for grep ended by SIGPIPE");
    assertSame("-c", "-e", "String", tree.toString());
  }

  @Test
  void garbageGetsAnErrorAndTheServiceGoesOn() throws Exception {
    try (SocketChannel channel = ServiceSocket.connect(socket)) {
      channel.write(ByteBuffer.wrap("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
      DataInputStream in = new DataInputStream(Channels.newInputStream(channel));
      assertEquals(ServiceProtocol.ERROR, in.readUnsignedByte());
      byte[] message = new byte[in.readInt()];
      in.readFully(message);
      String text = new String(message, StandardCharsets.UTF_8);
      assertTrue(text.contains("bad request") && text.contains("Fix:"), text);
    }
    try (SocketChannel channel = ServiceSocket.connect(socket)) {
      // A header that claims a 2 G-unit string must be refused, not allocated.
      DataOutputStream out = new DataOutputStream(Channels.newOutputStream(channel));
      out.writeInt(ServiceProtocol.MAGIC);
      out.writeShort(ServiceProtocol.VERSION);
      out.writeInt(Integer.MAX_VALUE);
      out.flush();
      assertEquals(ServiceProtocol.ERROR, new DataInputStream(Channels.newInputStream(channel)).readUnsignedByte());
    }
    assertSame("-c", "-e", "String", tree.toString());
    assertTrue(status().contains("2 bad requests"), status());
  }

  @Test
  void aConnectionThatSendsNoRequestIsClosedAndTheServiceGoesOn() throws Exception {
    service.requestTimeout(Duration.ofMillis(300));
    try (SocketChannel silent = ServiceSocket.connect(socket)) {
      // Nothing sent: the service closes its end, so a read sees the end of the stream.
      assertEquals(-1, silent.read(ByteBuffer.allocate(1)));
    }
    assertTrue(status().contains("1 bad requests"), status());
    assertSame("-c", "-e", "String", tree.toString());
  }

  @Test
  void whatTheSharedKernelCannotHonourIsDeclinedAndScannedByTheClient() {
    assertEquals(OptionalInt.empty(), served(dir, "--backend", "cuda", "-e", "x", tree.toString()).status());
    assertEquals(OptionalInt.empty(), served(dir, "--task-size", "4096", "-e", "x", tree.toString()).status());
    assertEquals(OptionalInt.empty(), ServiceClient.scan(socket, List.of("-e", "x", tree.toString()), "another build", 0, dir,
        new ByteArrayOutputStream(), new ByteArrayOutputStream()));
    // Standard input stays with the client: "-", -f -, or no PATH with a pipe on stdin.
    assertEquals(OptionalInt.empty(), served(dir, "-e", "x", "-").status());
    assertEquals(OptionalInt.empty(), served(dir, "-f", "-", tree.toString()).status());
    assertEquals(OptionalInt.empty(), ServiceClient.scan(socket, List.of("-e", "x"), VersionInfo.buildId(),
        ServiceProtocol.STDIN_DATA, dir, new ByteArrayOutputStream(), new ByteArrayOutputStream()));
    assertTrue(status().contains("6 declined"), status());
  }

  @Test
  void theSocketIsPrivateAndASecondServiceIsRefused() throws IOException {
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())));
    Megakernel second = Megakernel.builder().backend(Backends.select("reference")).bootstrap();
    try {
      InputException refused = assertThrows(InputException.class,
          () -> new ScanService(second, socket, 1, VersionInfo.buildId(), new PrintStream(new ByteArrayOutputStream())));
      assertTrue(refused.getMessage().contains("another vyre serve is listening"), refused.getMessage());
    } finally {
      second.close();
    }
    try (SocketChannel client = ServiceSocket.connect(socket)) {
      assertTrue(ServiceSocket.samePeerUser(client, ServiceSocket.self()), "a client of this user is let in");
      UserPrincipal nobody = socket.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("65534");
      assertFalse(ServiceSocket.samePeerUser(client, nobody), "a client of another user is refused");
    }
  }

  @Test
  void aServiceWhoseKernelStoppedStopsServingAndClientsScanByThemselves() throws Exception {
    kernel.close();
    Served failed = served(dir, "-c", "-e", "String", tree.toString());
    assertEquals(OptionalInt.of(2), failed.status(), failed.err());
    serving.join(Duration.ofSeconds(30));
    assertFalse(serving.isAlive(), "the service stopped accepting");
    assertTrue(log.toString(StandardCharsets.UTF_8).contains("the kernel stopped"), log.toString(StandardCharsets.UTF_8));
    assertEquals(OptionalInt.empty(), served(dir, "-c", "-e", "String", tree.toString()).status());
  }

  @Test
  void statusNamesTheKernelAndStopEndsTheService() throws Exception {
    assertTrue(status().startsWith("vyre serve: pid " + ProcessHandle.current().pid()), status());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, ServiceClient.control(socket, VersionInfo.buildId(), ServiceProtocol.STOP, out,
        new ByteArrayOutputStream()));
    serving.join(Duration.ofSeconds(30));
    assertFalse(serving.isAlive());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("stopping"));
  }

  @Test
  void closingTwiceReturnsAsOnSigterm() {
    // On SIGTERM the shutdown hook closes the service and so does the main thread whose accept loop that ended.
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      service.close();
      service.close();
    });
    assertFalse(Files.exists(socket));
  }

  @Test
  void aServiceProcessStopsOnSigterm() throws Exception {
    Path processSocket = dir.resolve("process").resolve("scan.sock");
    Path serveLog = dir.resolve("serve.log");
    Process serve = new ProcessBuilder(ReplayLogDrills.vyre("serve", "--backend", "reference", "--socket",
        processSocket.toString())).redirectErrorStream(true).redirectOutput(serveLog.toFile()).start();
    try {
      // "listening" is printed once the shutdown hook is in place.
      for (int wait = 0; wait < 600 && !Files.readString(serveLog).contains("listening") && serve.isAlive(); wait++) {
        Thread.sleep(50);
      }
      assertTrue(Files.exists(processSocket), Files.readString(serveLog));
      serve.destroy();
      assertTrue(serve.waitFor(30, TimeUnit.SECONDS), "vyre serve ignored SIGTERM");
      assertFalse(Files.exists(processSocket));
    } finally {
      serve.destroyForcibly();
    }
  }

  private String status() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ServiceClient.control(socket, VersionInfo.buildId(), ServiceProtocol.STATUS, out, new ByteArrayOutputStream());
    } catch (IOException e) {
      return e.toString();
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}

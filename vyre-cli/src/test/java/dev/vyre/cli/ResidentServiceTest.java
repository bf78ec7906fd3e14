package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.cli.serve.ScanService;
import dev.vyre.cli.serve.ServiceClient;
import dev.vyre.cli.ServedScans.Served;
import dev.vyre.cli.serve.ServiceProtocol;
import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.ResidentCorpus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vyre serve --resident DIR} end to end on the reference backend (whose DEVICE resources are
 * host memory): a client's scan of DIR, or of a directory or file inside it, is answered from the
 * corpus ({@code --verbose} says "resident") and prints byte for byte what a scan alone prints, in
 * every output mode, also after files under DIR changed, appeared or went; a scan of anything else
 * reads the disk as before; {@code --status} shows the corpus.
 */
class ResidentServiceTest {

  @TempDir Path dir;
  private Path socket;
  private Path tree;
  private ScanService service;
  private Thread serving;
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws IOException {
    tree = Files.createDirectory(dir.resolve("tree"));
    Random random = new Random(5);
    for (int f = 0; f < 40; f++) {
      Path sub = Files.createDirectories(tree.resolve("d" + f % 4));
      StringBuilder text = new StringBuilder();
      int lines = f % 9 == 0 ? 900 : 5 + random.nextInt(150);
      for (int line = 0; line < lines; line++) {
        text.append(random.nextInt(7) == 0 ? "String value = error; // Stringent\n" : "int x" + line + " = " + random.nextInt()
            + ";\n");
      }
      Files.writeString(sub.resolve("f" + f + ".txt"), text);
    }
    Files.writeString(tree.resolve("empty.txt"), "");
    socket = dir.resolve("run").resolve("scan.sock");
    Megakernel kernel = ServedScans.serviceKernel(2);
    service = new ScanService(kernel, socket, 2, VersionInfo.buildId(), new PrintStream(log, true, StandardCharsets.UTF_8));
    // Resources of 8 KiB: the larger files are held in several pieces.
    ResidentCorpus corpus = service.holdResident(tree, 8192);
    assertEquals(41, corpus.files());
    serving = Thread.ofPlatform().start(() -> service.serve(null));
  }

  @AfterEach
  void stop() throws InterruptedException {
    service.close();
    serving.join(Duration.ofSeconds(30));
  }

  private boolean answeredResident(String... args) {
    List<String> verbose = new ArrayList<>(List.of("--verbose"));
    verbose.addAll(List.of(args));
    return served(verbose.toArray(String[]::new)).err().contains("(resident)");
  }

  private void assertEveryModeSame() {
    String t = tree.toString();
    assertSame("-e", "String", "-e", "error", t);
    assertSame("-c", "-e", "String", "-e", "Stringent", t);
    assertSame("--json", "-e", "error", t);
    assertSame("-l", "-e", "Stringent", t);
    assertSame("-L", "-e", "Stringent", t);
    assertSame("-q", "-e", "String", t);
    assertSame("-m", "2", "-i", "-e", "STRING", t);
    assertSame("-c", "-m", "3", "-e", "x1", t);
    assertSame("-n", "-e", "value", t);
    assertSame("-w", "-c", "-e", "String", t);
    assertSame("-e", "nowhere", t);
    assertSame("--include=f1*", "-c", "String", t);
    assertSame("-c", "String", tree.resolve("d1").toString());
  }

  private Served served(String... args) {
    return ServedScans.served(socket, dir, args);
  }

  private void assertSame(String... args) {
    ServedScans.assertSame(socket, dir, args);
  }

  @Test
  void aScanOfTheDirectoryIsAnsweredFromDeviceMemoryAndPrintsWhatItPrintsAlone() {
    assertTrue(answeredResident("-c", "String", tree.toString()));
    assertTrue(answeredResident("-c", "String", tree.resolve("d2").resolve("f2.txt").toString()));
    assertEveryModeSame();
    assertTrue(status().contains("resident: " + tree + ": 41 file(s)"), status());
  }

  @Test
  void filesChangedAddedOrDeletedUnderTheDirectoryAreSeenByTheNextScan() throws IOException {
    assertSame("-c", "-e", "String", tree.toString());
    Files.writeString(tree.resolve("d0").resolve("f0.txt"), "String String\n");
    Path sameSize = tree.resolve("d1").resolve("f1.txt");
    String text = Files.readString(sameSize);
    FileTime before = Files.getLastModifiedTime(sameSize);
    Files.writeString(sameSize, text.replace("int", "Str"));
    Files.setLastModifiedTime(sameSize, FileTime.fromMillis(before.toMillis() + 7000));
    Files.writeString(tree.resolve("d3").resolve("added.txt"), "error String error\n");
    Files.delete(tree.resolve("d2").resolve("f2.txt"));
    assertTrue(answeredResident("-c", "String", tree.toString()));
    assertEveryModeSame();
    assertTrue(status().contains("resident: " + tree + ": 41 file(s)"), status());
  }

  @Test
  void aScanOfAnythingElseReadsTheDisk() throws IOException {
    Path other = Files.createDirectory(dir.resolve("other"));
    Files.writeString(other.resolve("a.txt"), "String\n");
    assertFalse(answeredResident("-c", "String", other.toString()));
    assertFalse(answeredResident("-c", "String", tree.toString(), other.toString()));
    assertSame("-c", "String", tree.toString(), other.toString());
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

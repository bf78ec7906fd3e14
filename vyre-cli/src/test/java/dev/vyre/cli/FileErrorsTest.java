package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every error about a file, and every line {@code vyre conform} cannot parse, ends with a
 * {@code Fix: ...}: a missing file, one that cannot be read, a directory where a file belongs, an
 * output file that cannot be written.
 */
class FileErrorsTest {

  @TempDir Path dir;

  /** The file arguments of every command that reads one, with {@code file} in the place of each. */
  private static List<String[]> readers(String file, Path good) {
    String g = good.toString();
    return List.of(
        new String[] {"run", "--backend", "reference", file},
        new String[] {"replay", file},
        new String[] {"scan", "-f", file, g},
        new String[] {"plan", "barriers", "--json", file},
        new String[] {"policy", "recommend", "--json", file},
        new String[] {"telemetry", "decode", "--control", file, "--ring", g});
  }

  /** Exit 2 and one line, the command's or vyre's name first and a Fix last. */
  private static void assertOneErrorWithAFix(CliRun run, String[] args) {
    String context = String.join(" ", args) + " -> " + run.err();
    assertEquals(2, run.status(), context);
    assertTrue(run.err().matches("vyre[ :][^\\n]*\\. Fix: [^\\n]+\\n"), context);
  }

  @Test
  void aMissingFile() throws IOException {
    Path good = Files.writeString(dir.resolve("good"), "x");
    for (String[] args : readers(dir.resolve("missing").toString(), good)) {
      assertOneErrorWithAFix(CliRun.of(args), args);
    }
  }

  @Test
  void aDirectoryWhereAFileBelongs() throws IOException {
    Path good = Files.writeString(dir.resolve("good"), "x");
    for (String[] args : readers(dir.toString(), good)) {
      assertOneErrorWithAFix(CliRun.of(args), args);
    }
  }

  @Test
  void aFileThatCannotBeRead() throws IOException {
    Path good = Files.writeString(dir.resolve("good"), "x");
    // Every read of /proc/self/mem at offset 0 fails (nothing is mapped there), even for root.
    List<String[]> unreadable = new ArrayList<>(List.of(new String[] {"run", "--backend", "reference", "/proc/self/mem"},
        new String[] {"plan", "barriers", "--json", "/proc/self/mem"},
        new String[] {"policy", "recommend", "--json", "/proc/self/mem"},
        new String[] {"telemetry", "decode", "--control", "/proc/self/mem", "--ring", good.toString()}));
    Path locked = Files.writeString(dir.resolve("locked"), "x");
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
    if (!Files.isReadable(locked)) {
      unreadable.addAll(readers(locked.toString(), good));
    }
    for (String[] args : unreadable) {
      assertOneErrorWithAFix(CliRun.of(args), args);
    }
  }

  @Test
  void anOutputFileThatCannotBeWritten() throws IOException {
    Path program = Files.writeString(dir.resolve("p.vslot"), "NOP\n");
    for (Path log : List.of(dir, dir.resolve("missing/run.vrrl"))) {
      String[] args = {"run", "--backend", "reference", "--record", log.toString(), program.toString()};
      CliRun run = CliRun.of(args);
      assertOneErrorWithAFix(run, args);
      assertTrue(run.err().startsWith("vyre: --record: " + log + " cannot be written"), run.err());
    }
  }

  /** vyre scan names each file it cannot scan, as grep does, and goes on; each message has its Fix. */
  @Test
  void scanSaysHowToFixEachFileItCouldNotScan() throws IOException {
    Path good = Files.writeString(dir.resolve("good"), "x");
    Path locked = Files.writeString(dir.resolve("locked"), "x");
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
    List<String> args = new ArrayList<>(List.of("scan", "--backend", "reference", "-e", "x", "/dev/null",
        dir.resolve("missing").toString(), good.toString()));
    if (!Files.isReadable(locked)) {
      args.add(locked.toString());
    }
    CliRun run = CliRun.of(args.toArray(String[]::new));
    assertEquals(2, run.status(), run.err());
    assertEquals(good + ":0:x\n", run.out());
    List<String> messages = run.err().lines().toList();
    assertEquals(args.size() - 6, messages.size(), run.err());
    for (String message : messages) {
      assertTrue(message.matches("vyre scan: .*\\. Fix: .+"), message);
    }
  }

  @Test
  void conformSaysHowToFixALineThatIsNotJson() throws IOException {
    CliRun run = CliRun.withStdin("{\"fn\":\nnot json\n{\"fn\":\"recommend\"} ]\n", "conform");
    assertEquals(0, run.status(), run.err());
    List<String> lines = run.out().lines().toList();
    assertEquals(3, lines.size(), run.out());
    for (String line : lines) {
      JsonNode error = Json.MAPPER.readTree(line).path("error");
      assertEquals("InputError", error.path("type").asText(), line);
      String message = error.path("message").asText();
      assertTrue(message.matches("conform: the line is not valid JSON: [^\\n]+ \\(column \\d+\\)\\. Fix: .+"), message);
    }
  }
}

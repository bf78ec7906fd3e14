package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.Json;
import dev.vyre.driver.error.InputException;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vyre scan}: grep-like output, exit status and error handling, on the reference backend. */
class ScanCommandTest {

  @TempDir Path dir;
  private Path a;
  private Path c;

  @BeforeEach
  void files() throws IOException {
    a = Files.writeString(dir.resolve("a.txt"), "she sells sea shells\n");
    Files.createDirectories(dir.resolve("sub"));
    c = Files.writeString(dir.resolve("sub/c.log"), "ushers\n");
    Files.writeString(dir.resolve("sub/nothing.txt"), "nothing to see\n");
  }

  @Test
  void printsEveryOverlappingMatchAsPathOffsetPatternSortedPerFileInPathOrder() {
    CliRun run = CliRun.scanOnReference("-e", "he", "-e", "she", "-e", "hers", dir.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(a + ":0:she\n" + a + ":1:he\n" + a + ":14:she\n" + a + ":15:he\n"
        + c + ":1:she\n" + c + ":2:he\n" + c + ":2:hers\n", run.out());
    assertEquals("", run.err());
  }

  @Test
  void patternsTheCompilerRefusesWhileTheKernelStartsEndTheScanWithItsMessage() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ScanEnvironment environment = new ScanEnvironment(out, new PrintStream(err, true, StandardCharsets.UTF_8), false,
        false, Path.of(""), null, null, null, false, patterns -> {
          throw InputException.of("patterns", "this test's compiler refuses them", "give other patterns");
        }, null);
    int status = VyreCommand.executeScan(environment, "--backend=reference", "-e", "she", a.toString());
    String message = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, status, message);
    assertTrue(message.contains("this test's compiler refuses them") && message.contains("Fix: give other patterns"),
        message);
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void patternsThatEndTogetherByTheThousandGetAnExactCount() throws IOException {
    StringBuilder suffixes = new StringBuilder();
    for (int length = 1; length <= 1100; length++) {
      suffixes.append("a".repeat(length)).append('\n');
    }
    Path patterns = Files.writeString(dir.resolve("suffixes"), suffixes);
    Path text = Files.writeString(dir.resolve("as.txt"), "a".repeat(3000) + "\n");
    CliRun run = CliRun.scanOnReference("-c", "-f", patterns.toString(), text.toString());
    assertEquals(0, run.status(), run.err());
    long expected = 0;
    for (int length = 1; length <= 1100; length++) {
      expected += 3000 - length + 1;
    }
    assertEquals(text + ":" + expected + "\n", run.out());
    // Chunks fitted to this 3,001-byte input are far below what the hit counter can count
    // (HitCounterGuardTest covers the fit to the counter).
    assertEquals("", run.err());
  }

  @Test
  void theFirstOperandIsThePatternWithoutDashEOrDashF() {
    CliRun run = CliRun.scanOnReference("sells", a.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(a + ":4:sells\n", run.out());
  }

  @Test
  void patternsComeFromFilesAndIgnoreCaseFoldsAscii() throws IOException {
    Path patterns = Files.writeString(dir.resolve("patterns"), "SEA\r\nUSH\n");
    CliRun run = CliRun.scanOnReference("-i", "-f", patterns.toString(), a.toString(), c.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(a + ":10:SEA\n" + c + ":0:USH\n", run.out());
  }

  @Test
  void noMatchExitsOneWithNoOutput() {
    CliRun run = CliRun.scanOnReference("-e", "absent", dir.toString());
    assertEquals(1, run.status(), run.err());
    assertEquals("", run.out());
  }

  @Test
  void countPrintsEveryFilesMatchCountIncludingZero() {
    CliRun run = CliRun.scanOnReference("--count", "-e", "he", dir.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(a + ":2\n" + c + ":1\n" + dir.resolve("sub/nothing.txt") + ":0\n", run.out());
  }

  @Test
  void jsonPrintsOneObjectPerMatch() throws IOException {
    CliRun run = CliRun.scanOnReference("--json", "-e", "shells", "-e", "sea", a.toString());
    assertEquals(0, run.status(), run.err());
    List<String> lines = run.out().lines().toList();
    assertEquals(2, lines.size());
    JsonNode first = Json.MAPPER.readTree(lines.get(0));
    assertEquals(a.toString(), first.get("path").asText());
    assertEquals(10, first.get("offset").asLong());
    assertEquals(1, first.get("pattern_id").asInt());
    assertEquals("sea", first.get("pattern").asText());
    assertEquals(14, Json.MAPPER.readTree(lines.get(1)).get("offset").asLong());
  }

  /**
   * A file name and a pattern that are not UTF-8: lines and counts print their bytes as they are,
   * like grep; JSON keeps "path" and "pattern" strings (lossy) and adds the exact bytes in base64.
   */
  @Test
  void namesAndPatternsThatAreNotUtf8ComeOutExactly() throws Exception {
    Path odd = Files.createDirectory(dir.resolve("odd"));
    // By shell: a Java String cannot name a file whose name is not UTF-8.
    Process sh = new ProcessBuilder("sh", "-c", "printf key > \"$1/$(printf 'n\\377.bin')\"", "sh", odd.toString())
        .inheritIO().start();
    assertEquals(0, sh.waitFor());
    Path patterns = Files.write(dir.resolve("odd-patterns"), new byte[] {'k', 'e', (byte) 0xFF, '\n', 'k', 'e', 'y'});
    Files.write(odd.resolve("plain"), new byte[] {'k', 'e', (byte) 0xFF});
    byte[] name = concat(odd.toString().getBytes(StandardCharsets.UTF_8), new byte[] {'/', 'n', (byte) 0xFF, '.', 'b',
        'i', 'n'});

    ByteArrayOutputStream lines = new ByteArrayOutputStream();
    CliRun run = CliRun.withStdout(lines, "scan", "--backend=reference", "-f", patterns.toString(), odd.toString());
    assertEquals(0, run.status(), run.err());
    assertArrayEquals(concat(name, ":0:key\n".getBytes(StandardCharsets.US_ASCII),
        (odd + "/plain:0:ke").getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xFF, '\n'}), lines.toByteArray());

    ByteArrayOutputStream counts = new ByteArrayOutputStream();
    run = CliRun.withStdout(counts, "scan", "--backend=reference", "-c", "-f", patterns.toString(), odd.toString());
    assertEquals(0, run.status(), run.err());
    assertArrayEquals(concat(name, (":1\n" + odd + "/plain:1\n").getBytes(StandardCharsets.UTF_8)),
        counts.toByteArray());

    run = CliRun.scanOnReference("--json", "-f", patterns.toString(), odd.toString());
    assertEquals(0, run.status(), run.err());
    List<String> json = run.out().lines().toList();
    assertEquals(2, json.size(), run.out());
    JsonNode first = Json.MAPPER.readTree(json.get(0));
    assertEquals(new String(name, StandardCharsets.UTF_8), first.get("path").asText(), "lossy: U+FFFD for 0xFF");
    assertArrayEquals(name, Base64.getDecoder().decode(first.get("path_bytes").asText()));
    assertEquals("key", first.get("pattern").asText());
    assertFalse(first.has("pattern_bytes"), "key is UTF-8");
    JsonNode second = Json.MAPPER.readTree(json.get(1));
    assertEquals(odd + "/plain", second.get("path").asText());
    assertFalse(second.has("path_bytes"), "plain is UTF-8");
    assertEquals("ke\uFFFD", second.get("pattern").asText());
    assertArrayEquals(new byte[] {'k', 'e', (byte) 0xFF}, Base64.getDecoder().decode(second.get("pattern_bytes").asText()));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      all.writeBytes(part);
    }
    return all.toByteArray();
  }

  @Test
  void countAndJsonTogetherAreAUsageError() {
    CliRun run = CliRun.scanOnReference("--count", "--json", "-e", "he", a.toString());
    assertEquals(2, run.status());
    assertTrue(run.err().contains("mutually exclusive"), run.err());
  }

  @Test
  void unknownFlagsAreUsageErrorsGrepsInvertIncluded() {
    CliRun run = CliRun.scanOnReference("--frobnicate", "-e", "he", a.toString());
    assertEquals(2, run.status());
    assertTrue(run.err().contains("Unknown option: '--frobnicate'"), run.err());
    CliRun invert = CliRun.scanOnReference("-v", "-e", "he", a.toString());
    assertEquals(2, invert.status(), "-v is not --verbose here: a grep user would expect inverted output");
    assertEquals("", invert.out());
  }

  @Test
  void aMissingFileIsReportedAndTheRestScannedButTheStatusIsTwo() {
    Path missing = dir.resolve("missing.txt");
    CliRun run = CliRun.scanOnReference("-e", "sells", missing.toString(), a.toString());
    assertEquals(2, run.status(), "grep exits 2 when an error occurred, even with matches");
    assertEquals(a + ":4:sells\n", run.out());
    assertEquals("vyre scan: " + missing + ": No such file or directory. Fix: check the path; -s leaves out files that do"
        + " not exist or cannot be read\n", run.err());
  }

  @Test
  void anUnreadableFileIsReportedAndSkipped() throws IOException {
    Path locked = Files.writeString(dir.resolve("locked.txt"), "sells");
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
    Assumptions.assumeFalse(Files.isReadable(locked), "running as root: every file is readable");
    CliRun run = CliRun.scanOnReference("-e", "sells", locked.toString(), a.toString());
    assertEquals(2, run.status());
    assertEquals(a + ":4:sells\n", run.out());
    assertEquals("vyre scan: " + locked + ": Permission denied. Fix: make it readable (chmod, or run as a user who may"
        + " read it), or leave it out with --exclude or --exclude-dir\n", run.err());
  }

  @Test
  void devicesAndPipesAreReportedAndSkipped() {
    CliRun run = CliRun.scanOnReference("-e", "sells", "/dev/null", a.toString());
    assertEquals(2, run.status());
    assertEquals(a + ":4:sells\n", run.out());
    assertEquals("vyre scan: /dev/null: not a regular file or directory (vyre scan reads files, not pipes or devices)."
        + " Fix: save what it holds to a file and scan that, or leave it out\n", run.err());
  }

  @Test
  void emptyFilesAndDirectoriesMatchNothing() throws IOException {
    Path empty = Files.write(dir.resolve("empty"), new byte[0]);
    Path emptyDir = Files.createDirectory(dir.resolve("empty-dir"));
    CliRun run = CliRun.scanOnReference("-e", "x", empty.toString(), emptyDir.toString());
    assertEquals(1, run.status(), run.err());
    assertEquals("", run.out() + run.err());
  }

  @Test
  void binaryFilesAreScannedByteForByte() throws IOException {
    Path binary = Files.write(dir.resolve("blob.bin"), new byte[] {0, (byte) 0xFF, 'k', 'e', 'y', 0, 'k', 'e', 'y'});
    CliRun run = CliRun.scanOnReference("-e", "key", binary.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(binary + ":2:key\n" + binary + ":6:key\n", run.out());
  }

  @Test
  void missingOrEmptyPatternsAreErrorsWithAFix() throws IOException {
    CliRun none = CliRun.scanOnReference();
    assertEquals(2, none.status());
    assertTrue(none.err().startsWith("vyre: PATTERN: no pattern given. Fix: "), none.err());
    Path blank = Files.writeString(dir.resolve("blank"), "he\n\nshe\n");
    CliRun blankLine = CliRun.scanOnReference("-f", blank.toString(), a.toString());
    assertEquals(2, blankLine.status());
    assertTrue(blankLine.err().startsWith("vyre: " + blank + ":2: empty pattern. Fix: "), blankLine.err());
  }

  /**
   * {@code grep -F -e $'sells\nshells'} searches for both words, as does PATTERN with a newline; for
   * matches that do not overlap, {@code grep -F -o -b -H} prints exactly vyre's path:offset:pattern.
   */
  @Test
  void aNewlineInAPatternSeparatesPatternsAsInGrep() throws Exception {
    String expected = a + ":4:sells\n" + a + ":14:shells\n";
    CliRun dashE = CliRun.scanOnReference("-e", "sells\nshells", a.toString());
    assertEquals(0, dashE.status(), dashE.err());
    assertEquals(expected, dashE.out());
    CliRun operand = CliRun.scanOnReference("sells\nshells", a.toString());
    assertEquals(0, operand.status(), operand.err());
    assertEquals(expected, operand.out());
    Process grep;
    try {
      grep = new ProcessBuilder("grep", "-F", "-o", "-b", "-H", "-e", "sells\nshells", a.toString()).start();
    } catch (IOException noGrep) {
      System.out.println("ScanCommandTest: no grep to compare with: " + noGrep);
      return;
    }
    String grepOut = new String(grep.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, grep.waitFor());
    assertEquals(expected, grepOut, "grep -F -o -b -H prints the same");
  }

  /**
   * Where grep would take an empty pattern (an empty -e, a newline at either end of one, a blank line
   * in -f) and print every line, vyre scan, which prints matches by offset, refuses it with a fix.
   */
  @Test
  void anEmptyPatternFromANewlineIsAnErrorSayingWhichNewline() {
    CliRun trailing = CliRun.scanOnReference("-e", "he", "-e", "sells\n", a.toString());
    assertEquals(2, trailing.status());
    assertEquals("", trailing.out());
    assertTrue(trailing.err().startsWith("vyre: -e: line 2 of pattern argument 2 is empty (a newline separates patterns,"
        + " as in grep). Fix: remove the newline at its end; an empty pattern would match at every byte offset"),
        trailing.err());
    CliRun empty = CliRun.scanOnReference("-e", "", a.toString());
    assertEquals(2, empty.status());
    assertTrue(empty.err().startsWith("vyre: -e: pattern argument 1 is empty. Fix: remove it"), empty.err());
    CliRun operand = CliRun.scanOnReference("\nsells", a.toString());
    assertEquals(2, operand.status());
    assertTrue(operand.err().startsWith("vyre: PATTERN: line 1 of pattern argument 1 is empty"), operand.err());
  }

  /** As with grep -F, an empty pattern file adds no pattern; with none at all there is nothing to scan for. */
  @Test
  void anEmptyPatternFileAddsNoPatterns() throws IOException {
    Path none = Files.write(dir.resolve("none"), new byte[0]);
    CliRun run = CliRun.scanOnReference("-e", "sells", "-f", none.toString(), a.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(a + ":4:sells\n", run.out());
    CliRun only = CliRun.scanOnReference("-f", none.toString(), a.toString());
    assertEquals(2, only.status());
    assertTrue(only.err().startsWith("vyre: " + none + ": no patterns given. Fix: "), only.err());
  }

  @Test
  void verboseSaysWhichBackendIoAndTable() {
    CliRun run = CliRun.scanOnReference("--verbose", "-e", "he", a.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.err().contains("vyre scan: backend: reference requested"), run.err());
    assertTrue(run.err().contains("vyre scan: io: io_uring") || run.err().contains("vyre scan: io: FileChannel"),
        run.err());
    assertTrue(run.err().contains("vyre scan: DFA table: 1 patterns, 3 states"), run.err());
    assertTrue(run.err().contains("1 file(s), 21 bytes in "), run.err());
    // The launch policy's boot decisions: one task in flight, and the hit buffers of one chunk of one task.
    int cores = Runtime.getRuntime().availableProcessors();
    assertTrue(run.err().contains("vyre scan: policy: at boot, 1 of " + cores + " worker groups for a queue of 1 ("),
        run.err());
    long hits = ScanJob.hitCapacity(ScanOptions.defaults().fittedTo(21));
    assertTrue(run.err().contains("vyre scan: policy: hit buffers of " + hits + " records a chunk, the hit capacity for 1 tasks"
        + " of 256 expected hits"), run.err());
    assertTrue(run.err().contains("vyre scan: promotion: off: the reference backend has no faster promoted DFA_STEP"),
        run.err());
  }

  @Test
  void autoRunsAJobSmallerThanAGpusStartUpOnTheCpuAndSaysWhy() {
    CliRun run = CliRun.of("scan", "--verbose", "-e", "he", a.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.err().contains("vyre scan: backend: auto chose reference: 21 bytes to scan: "), run.err());
    assertTrue(run.err().contains(" a GPU ") && run.err().contains(" s to start ("), run.err());
  }

  @Test
  void stagingAndParallelReadsFindTheSameMatchesAndBadModesHaveAFix() {
    CliRun run = CliRun.scanOnReference("--stage", "device", "--parallel-reads", "on", "--verbose", "-e", "sells", "-e", "shells", a.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(a + ":4:sells\n" + a + ":14:shells\n", run.out());
    assertTrue(run.err().contains("each chunk copied to device memory"), run.err());
    assertTrue(run.err().contains("waiting for reads"), "the time split: " + run.err());
    CliRun bad = CliRun.scanOnReference("--parallel-reads", "sometimes", "-e", "x", a.toString());
    assertEquals(2, bad.status());
    assertTrue(bad.err().contains("'sometimes' is not auto, on or off. Fix: pass --parallel-reads auto, on or off"), bad.err());
  }

  @Test
  void tinyChunksAndTasksFindMatchesAcrossTheirBoundaries() {
    CliRun run = CliRun.scanOnReference("--chunk-size", "3", "--task-size", "2", "--buffers", "2", "-e", "sells", "-e", "shells", a.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(a + ":4:sells\n" + a + ":14:shells\n", run.out());
  }

  @Test
  void aStdoutThatFailsStopsTheScanWithAnError() throws IOException {
    byte[] hits = "ab".repeat(20_000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    for (int i = 0; i < 20; i++) {
      Files.write(dir.resolve("sub/hits" + i), hits);
    }
    CliRun.FailingOutput disk = new CliRun.FailingOutput("No space left on device");
    CliRun run = CliRun.withStdout(disk, "scan", "--backend=reference", "-e", "ab", dir.toString());
    assertEquals(2, run.status(), run.err());
    assertEquals("vyre scan: standard output: write failed (a full disk or a closed pipe). Fix: write the output where it"
        + " fits, e.g. > FILE on a disk with room\n", run.err());
    assertEquals(1, disk.writes, "the scan stops at the first failed write");
  }

  @Test
  void negativeOrZeroSizesAreRefusedNotQuietlyReplaced() {
    for (String[] option : new String[][] {{"--chunk-size", "-5"}, {"--chunk-size", "0"}, {"--task-size", "-1"},
        {"--buffers", "-1"}}) {
      CliRun run = CliRun.scanOnReference(option[0], option[1], "-e", "sells", a.toString());
      assertEquals(2, run.status(), List.of(option) + ": " + run.out());
      assertTrue(run.err().startsWith("vyre: " + option[0] + ": " + option[1] + " ") && run.err().contains(". Fix: "),
          run.err());
      assertEquals("", run.out());
    }
  }

  @Test
  void aDashIsStandardInputScannedInItsPlaceAndNamedAsGrepNamesIt() {
    CliRun run = CliRun.withStdin("sells\n", "scan", "--backend=reference", "-e", "sells", "-", a.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals("(standard input):0:sells\n" + a + ":4:sells\n", run.out());
    assertEquals("", run.err());
  }

  @Test
  void aPatternAfterDashEIsTakenAsGivenEvenWhenItLooksLikeAnOption() throws IOException {
    Path options = Files.writeString(dir.resolve("options.txt"), "grep -foo -i\n");
    CliRun run = CliRun.scanOnReference("-e", "-foo", "--regexp=-i", options.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(options + ":5:-foo\n" + options + ":10:-i\n", run.out());
  }

  @Test
  void filesWithMatchesPrintsEachMatchingPathOnceInTheOrderFilesArePrinted() throws IOException {
    String withMatches = a + "\n" + c + "\n";
    for (String[] options : new String[][] {{"-l"}, {"--files-with-matches"}, {"-c", "-l"}, {"-l", "--count"},
        {"-L", "-l"}}) {
      CliRun run = CliRun.scanOnReference(concat(options, "-e", "he", dir.toString()));
      assertEquals(0, run.status(), List.of(options) + ": " + run.err());
      assertEquals(withMatches, run.out(), List.of(options).toString());
    }
    CliRun json = CliRun.scanOnReference("-l", "--json", "-e", "he", dir.toString());
    assertEquals(0, json.status(), json.err());
    assertEquals("{\"path\":\"" + a + "\"}\n{\"path\":\"" + c + "\"}\n", json.out());
    CliRun none = CliRun.scanOnReference("-l", "-e", "absent", dir.toString());
    assertEquals(1, none.status(), none.err());
    assertEquals("", none.out());
  }

  /** As in GNU grep 3.5 and later, -L exits 0 when some file matched, whether or not it listed one. */
  @Test
  void filesWithoutMatchListsTheOthersAndExitsZeroWhenSomethingMatched() {
    Path nothing = dir.resolve("sub/nothing.txt");
    CliRun run = CliRun.scanOnReference("-L", "-e", "he", dir.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(nothing + "\n", run.out());
    CliRun last = CliRun.scanOnReference("-l", "--files-without-match", "-c", "-e", "he", dir.toString());
    assertEquals(nothing + "\n", last.out(), "the last of -l and -L wins, and either overrides -c");
    CliRun none = CliRun.scanOnReference("-L", "-e", "absent", dir.toString());
    assertEquals(1, none.status(), "nothing matched, though every file is listed");
    assertEquals(a + "\n" + c + "\n" + nothing + "\n", none.out());
    CliRun allListed = CliRun.scanOnReference("-L", "-e", "sells", a.toString());
    assertEquals(0, allListed.status());
    assertEquals("", allListed.out());
    CliRun json = CliRun.scanOnReference("-L", "--json", "-e", "he", dir.toString());
    assertEquals("{\"path\":\"" + nothing + "\"}\n", json.out());
  }

  @Test
  void quietPrintsNothingAndAMatchOutweighsAnError() {
    Path missing = dir.resolve("missing.txt");
    for (String[] options : new String[][] {{"-q"}, {"--quiet"}, {"--silent"}, {"-q", "-l"}, {"-q", "--json"},
        {"-c", "-q"}, {"-q", "-L"}}) {
      CliRun run = CliRun.scanOnReference(concat(options, "-e", "he", dir.toString()));
      assertEquals(0, run.status(), List.of(options) + ": " + run.err());
      assertEquals("", run.out() + run.err(), List.of(options).toString());
    }
    CliRun matchAndError = CliRun.scanOnReference("-q", "-e", "he", missing.toString(), dir.toString());
    assertEquals(0, matchAndError.status(), "grep -q: a match is the answer even after an error");
    assertTrue(matchAndError.err().startsWith("vyre scan: " + missing + ": No such file or directory. Fix: "),
        matchAndError.err());
    assertEquals(2, CliRun.scanOnReference("-q", "-e", "absent", missing.toString(), dir.toString()).status());
    assertEquals(1, CliRun.scanOnReference("-q", "-e", "absent", dir.toString()).status());
  }

  @Test
  void quietStopsAtTheFirstFileWithAMatch() throws IOException {
    for (int i = 0; i < 50; i++) {
      Files.writeString(dir.resolve("sub/many-" + (100 + i)), "he ".repeat(1000));
    }
    CliRun run = CliRun.scanOnReference("-q", "--verbose", "--buffers", "1", "--chunk-size", "256", "--task-size", "256", "-e", "he",
        dir.resolve("sub").toString());
    assertEquals(0, run.status(), run.err());
    assertEquals("", run.out());
    assertTrue(run.err().contains("vyre scan: 52 file(s), 150022 bytes; chunks of 256"), run.err());
    assertTrue(run.err().contains("vyre scan: 1 file(s), "), "scanned one file, not all 52: " + run.err());
  }

  @Test
  void noMessagesKeepsQuietAboutMissingAndUnreadableFilesButNotTheStatus() throws IOException {
    Path missing = dir.resolve("missing.txt");
    CliRun run = CliRun.scanOnReference("-s", "-e", "sells", missing.toString(), "/dev/null", a.toString());
    assertEquals(2, run.status());
    assertEquals(a + ":4:sells\n", run.out());
    assertEquals("", run.err());
    CliRun quiet = CliRun.scanOnReference("--no-messages", "-q", "-e", "sells", missing.toString(), a.toString());
    assertEquals(0, quiet.status());
    assertEquals("", quiet.out() + quiet.err());
    Path locked = Files.writeString(dir.resolve("locked.txt"), "sells");
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
    Assumptions.assumeFalse(Files.isReadable(locked), "running as root: every file is readable");
    CliRun unreadable = CliRun.scanOnReference("-s", "-e", "sells", locked.toString(), a.toString());
    assertEquals(2, unreadable.status());
    assertEquals(a + ":4:sells\n", unreadable.out());
    assertEquals("", unreadable.err());
  }

  /**
   * procfs says size 0 for files that hold bytes: before, {@code vyre scan -c -e processor /proc/cpuinfo}
   * printed {@code /proc/cpuinfo:0} and exited 1 while grep found the lines.
   */
  @Test
  void filesThatSaySizeZeroAreReadToTheirEndAsAPlainReadSeesThem() throws IOException {
    Path status = Path.of("/proc/self/status");
    Assumptions.assumeTrue(Files.isRegularFile(status), "no /proc here: nothing says size 0 and holds bytes");
    Assumptions.assumeTrue(Files.size(status) == 0, "this /proc gives its files a size");
    // Its lines' names do not change while the JVM runs, only some values.
    CliRun run = CliRun.scanOnReference("-c", "-e", "Name:", "-e", "Pid:", status.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(status + ":" + occurrences(Files.readString(status), "Name:", "Pid:") + "\n", run.out());
    Path cpuinfo = Path.of("/proc/cpuinfo");
    if (Files.isRegularFile(cpuinfo)) {
      CliRun processors = CliRun.scanOnReference("-c", "-e", "processor", cpuinfo.toString());
      assertEquals(cpuinfo + ":" + occurrences(Files.readString(cpuinfo), "processor") + "\n", processors.out());
    }
  }

  private static long occurrences(String text, String... needles) {
    long count = 0;
    for (String needle : needles) {
      for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
        count++;
      }
    }
    return count;
  }

  /**
   * procfs refuses root the listing of {@code /proc/1/map_files} (without CAP_SYS_ADMIN): before,
   * {@code vyre scan -e X /} stopped there with "unexpected error: java.nio.file.DirectoryIteratorException".
   * As grep, the directory is reported like an unreadable file and the rest is scanned.
   */
  @Test
  void aDirectoryThatCannotBeListedIsReportedAndTheRestScannedLikeAnUnreadableFile() throws IOException {
    Path mapFiles = Path.of("/proc/1/map_files");
    Assumptions.assumeTrue(listingFails(mapFiles), mapFiles + " is absent or lists here: nothing to reproduce");
    CliRun run = CliRun.scanOnReference("-e", "sells", mapFiles.toString(), dir.toString());
    assertEquals(2, run.status(), "grep exits 2 when an error occurred, even with matches");
    assertEquals(a + ":4:sells\n", run.out());
    assertEquals("vyre scan: " + mapFiles + ": Permission denied. Fix: make it readable (chmod, or run as a user who may"
        + " read it), or leave it out with --exclude or --exclude-dir\n", run.err());
    CliRun silent = CliRun.scanOnReference("-s", "-e", "sells", mapFiles.toString(), dir.toString());
    assertEquals(2, silent.status());
    assertEquals(a + ":4:sells\n", silent.out());
    assertEquals("", silent.err());
    CliRun quiet = CliRun.scanOnReference("-q", "-e", "sells", mapFiles.toString(), dir.toString());
    assertEquals(0, quiet.status(), "-q: a match outweighs an error");
    CliRun nothing = CliRun.scanOnReference("-e", "absent", mapFiles.toString(), dir.toString());
    assertEquals(2, nothing.status());
  }

  private static boolean listingFails(Path directory) {
    if (!Files.isDirectory(directory)) {
      return false;
    }
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      stream.forEach(entry -> {});
      return false;
    } catch (IOException | DirectoryIteratorException e) {
      return true;
    }
  }

  /** -m counts matches, not lines as grep does: "she sells sea shells" is one line with two matches of "s". */
  @Test
  void maxCountReportsTheFirstMatchesOfEachFileAndCapsTheCount() throws IOException {
    CliRun lines = CliRun.scanOnReference("-m", "2", "-e", "he", "-e", "she", dir.toString());
    assertEquals(0, lines.status(), lines.err());
    assertEquals(a + ":0:she\n" + a + ":1:he\n" + c + ":1:she\n" + c + ":2:he\n", lines.out());
    CliRun counts = CliRun.scanOnReference("--max-count=1", "-c", "-e", "he", dir.toString());
    assertEquals(a + ":1\n" + c + ":1\n" + dir.resolve("sub/nothing.txt") + ":0\n", counts.out());
    CliRun json = CliRun.scanOnReference("-m", "1", "--json", "-e", "sea", "-e", "shells", a.toString());
    assertEquals(1, json.out().lines().count(), json.out());
    assertEquals(10, Json.MAPPER.readTree(json.out()).get("offset").asLong());
    CliRun unlimited = CliRun.scanOnReference("-m", "-1", "-c", "-e", "he", a.toString());
    assertEquals(a + ":2\n", unlimited.out());
  }

  /** As grep: -m 0 reads nothing and exits 1, missing files and all; with -L every file is listed. */
  @Test
  void maxCountZeroMatchesNothing() {
    Path missing = dir.resolve("missing.txt");
    CliRun run = CliRun.scanOnReference("-m", "0", "-e", "he", missing.toString(), dir.toString());
    assertEquals(1, run.status());
    assertEquals("", run.out() + run.err());
    CliRun listed = CliRun.scanOnReference("-m", "0", "-L", "-e", "he", a.toString(), c.toString());
    assertEquals(1, listed.status());
    assertEquals(a + "\n" + c + "\n", listed.out());
    CliRun bad = CliRun.scanOnReference("-m", "x", "-e", "he", a.toString());
    assertEquals(2, bad.status());
    assertTrue(bad.err().contains("--max-count"), bad.err());
  }

  @Test
  void includeExcludeAndExcludeDirSkipByBaseNameAndNamedPathsByName() throws IOException {
    Files.createDirectories(dir.resolve(".git"));
    Files.writeString(dir.resolve(".git/he"), "he");
    Path nothing = dir.resolve("sub/nothing.txt");
    assertEquals(a + "\n" + nothing + "\n", CliRun.scanOnReference("-L", "--include=*.txt", "-e", "absent", dir.toString()).out());
    assertEquals(a + "\n" + nothing + "\n",
        CliRun.scanOnReference("-L", "--include", "*.txt", "--exclude-dir=.git", "-e", "absent", dir.toString()).out());
    assertEquals(dir.resolve(".git/he") + "\n" + c + "\n",
        CliRun.scanOnReference("-l", "--exclude=*.txt", "-e", "he", dir.toString()).out());
    assertEquals(a + "\n", CliRun.scanOnReference("-l", "--exclude-dir=sub", "--exclude-dir=.*", "-e", "he", dir.toString()).out());
    CliRun named = CliRun.scanOnReference("-l", "--exclude=*.txt", "--exclude-dir=sub", "-e", "he", a.toString(), dir.resolve("sub")
        .toString(), c.toString());
    assertEquals(0, named.status(), named.err());
    assertEquals(c + "\n", named.out(), "a.txt and sub are skipped by name; c.log is not");
    CliRun namedFile = CliRun.scanOnReference("-l", "--exclude=*.txt", "-e", "he", c.toString());
    assertEquals(c + "\n", namedFile.out());
  }

  @Test
  void listedPathsThatAreNotUtf8ComeOutExactly() throws Exception {
    Path odd = Files.createDirectory(dir.resolve("odd"));
    Process sh = new ProcessBuilder("sh", "-c", "printf key > \"$1/$(printf 'n\\377.bin')\"", "sh", odd.toString())
        .inheritIO().start();
    assertEquals(0, sh.waitFor());
    byte[] name = concat(odd.toString().getBytes(StandardCharsets.UTF_8), new byte[] {'/', 'n', (byte) 0xFF, '.', 'b',
        'i', 'n'});
    ByteArrayOutputStream listed = new ByteArrayOutputStream();
    CliRun run = CliRun.withStdout(listed, "scan", "--backend=reference", "-l", "--include=n?.bin", "-e", "key",
        odd.toString());
    assertEquals(0, run.status(), run.err());
    assertArrayEquals(concat(name, new byte[] {'\n'}), listed.toByteArray());
    CliRun json = CliRun.scanOnReference("-l", "--json", "-e", "key", odd.toString());
    JsonNode object = Json.MAPPER.readTree(json.out());
    assertEquals(new String(name, StandardCharsets.UTF_8), object.get("path").asText());
    assertArrayEquals(name, Base64.getDecoder().decode(object.get("path_bytes").asText()));
  }

  private static String[] concat(String[] first, String... rest) {
    String[] all = Arrays.copyOf(first, first.length + rest.length);
    System.arraycopy(rest, 0, all, first.length, rest.length);
    return all;
  }
}

package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What grep and ripgrep users type by habit, against GNU grep's own output where grep is here
 * ({@code grep -r -F -o -b -a} in the C locale, over generated trees): {@code -n}, {@code -w},
 * {@code -Z}, {@code -H} and {@code -h}, standard input ({@code -}, no PATH, {@code -f -}), a closed
 * stdout pipe, and the grep options vyre scan lacks. The generated patterns cannot overlap
 * themselves or each other, so grep's {@code -o}, which skips overlapping matches, finds every match
 * vyre scan finds.
 */
class ScanGrepHabitsTest {

  private static final String GREP_VERSION = ScanGrepDifferentialTest.grepVersion();
  /** Never overlap: no pattern's proper suffix starts another (or itself). */
  private static final List<String> PATTERNS = List.of("ab", "cd_e", "x9");

  @TempDir Path dir;
  private Path tree;

  private static void assumeGnuGrep() {
    Assumptions.assumeTrue(GREP_VERSION.contains("GNU grep"), "needs GNU grep to compare with: " + GREP_VERSION);
  }

  /**
   * Files of words from a small alphabet, so that the patterns occur often, inside words and alone,
   * at the start and end of lines and files; lines end in LF or CRLF, some files without a last
   * newline; one file spans several of {@link HitContext}'s 64 KiB blocks.
   */
  @BeforeEach
  void tree() throws IOException {
    tree = Files.createDirectory(dir.resolve("tree"));
    Random random = new Random(24);
    String[] pieces = {"ab", "cd_e", "x9", "a", "b", "c", "d", "_", "e", "9", "x", " ", " ", "-", ".", "\n", "\r\n",
        "\t", "é"};
    int[] sizes = {0, 1, 2, 40, 300, 2_000, 200_000};
    for (int f = 0; f < sizes.length * 2; f++) {
      StringBuilder text = new StringBuilder();
      while (text.length() < sizes[f % sizes.length]) {
        text.append(pieces[random.nextInt(pieces.length)]);
      }
      Path file = tree.resolve((f % 3 == 0 ? "sub/" : "") + "f" + f + ".txt");
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    }
  }

  /** Files whose lines hold at most one match each, where grep's -c (lines) equals vyre scan's (matches). */
  private Path oneMatchPerLine() throws IOException {
    Path counts = dir.resolve("counts");
    if (!Files.isDirectory(counts)) {
      Files.createDirectories(counts.resolve("sub"));
      Files.writeString(counts.resolve("a.txt"), "ab\nq\ncd_e x\n");
      Files.writeString(counts.resolve("sub/b.txt"), "x9\r\n\nab");
      Files.writeString(counts.resolve("c.txt"), "none\n");
    }
    return counts;
  }

  @Test
  void lineNumbersEqualGreps() throws Exception {
    assumeGnuGrep();
    compare(List.of("-n"), tree.toString());
    compare(List.of("--line-number", "-H", "-o", "-b"), tree.toString());
    compare(List.of("-n"), tree.resolve("f6.txt").toString());
    assertTrue(vyre(List.of("-n"), tree.toString()).out().lines().count() > 10_000, "matches enough to compare");
  }

  @Test
  void wholeWordsEqualGreps() throws Exception {
    assumeGnuGrep();
    compare(List.of("-w"), tree.toString());
    compare(List.of("--word-regexp", "-n"), tree.toString());
    compare(List.of("-w", "-l"), tree.toString());
    compare(List.of("-w", "-L"), tree.toString());
    compare(List.of("-w", "-q"), tree.toString());
    assertTrue(vyre(List.of("-w"), tree.toString()).out().lines().count() > 1_000, "whole words enough to compare");
  }

  /** grep -c counts lines, vyre scan matches: the counts to expect are those of grep -o's lines per file. */
  @Test
  void wholeWordCountsAreGrepsMatchesPerFile() throws Exception {
    assumeGnuGrep();
    Map<String, Integer> expected = new TreeMap<>();
    for (Path file : Files.walk(tree).filter(Files::isRegularFile).toList()) {
      expected.put(file.toString(), 0);
    }
    for (String line : grep(List.of("-w", "-o", "-b", "-H"), tree.toString()).out().lines().toList()) {
      expected.merge(line.substring(0, line.indexOf(':')), 1, Integer::sum);
    }
    Map<String, Integer> counted = new TreeMap<>();
    for (String line : vyre(List.of("-w", "-c"), tree.toString()).out().lines().toList()) {
      counted.put(line.substring(0, line.lastIndexOf(':')), Integer.parseInt(line.substring(line.lastIndexOf(':') + 1)));
    }
    assertEquals(expected, counted);
  }

  @Test
  void nullAfterNamesAndNoFileNamesEqualGreps() throws Exception {
    assumeGnuGrep();
    compare(List.of("-Z"), tree.toString());
    compare(List.of("--null", "-n"), tree.toString());
    compare(List.of("-Z", "-l"), tree.toString());
    compare(List.of("-Z", "-L"), tree.toString());
    compare(List.of("-h"), tree.toString());
    compare(List.of("--no-filename", "-n"), tree.toString());
    compare(List.of("-h", "-l"), tree.toString());
    compare(List.of("-H", "-h", "-c"), oneMatchPerLine().toString());
    compare(List.of("-Z", "-c"), oneMatchPerLine().toString());
    compare(List.of("-h", "-H"), tree.resolve("f4.txt").toString());
    // With one file grep names it only when told; vyre scan always does.
    compare(List.of("-H"), tree.resolve("f5.txt").toString());
  }

  @Test
  void standardInputIsScannedForADashAndForNoPathAsGrepScansIt() throws Exception {
    assumeGnuGrep();
    byte[] input = Files.readAllBytes(tree.resolve("f5.txt"));
    String file = tree.resolve("f4.txt").toString();
    compare(List.of("-n"), input, "-");
    compare(List.of("-H"), input);
    compare(List.of("-c", "-H"), "ab\nzz\nq x9\n".getBytes(StandardCharsets.US_ASCII), oneMatchPerLine().toString(), "-");
    compare(List.of("-l"), input, "-", file);
    compare(List.of("-c", "-H"), new byte[0], "-");
  }

  @Test
  void noPathWithAPipeScansTheInputAndWithoutOneOrWithRTheCurrentDirectory() {
    StandardInput pipe = new StandardInput(new java.io.ByteArrayInputStream("ab".getBytes()), true);
    try (ScanInputs inputs = ScanInputs.of(List.of(), dev.vyre.scan.ScanFilter.NONE, pipe, false, false, Path.of(""))) {
      assertEquals(List.of(inputs.standardInput()), inputs.targets().files().stream().map(f -> f.path()).toList());
      assertEquals(2, inputs.targets().files().getFirst().size());
    }
    for (StandardInput stdin : List.of(new StandardInput(java.io.InputStream.nullInputStream(), false), pipe)) {
      // -r or a terminal: the current directory, as grep -r; stdin is left unread.
      try (ScanInputs inputs = ScanInputs.of(List.of(), dev.vyre.scan.ScanFilter.NONE, stdin, stdin == pipe, false, Path.of(""))) {
        assertEquals(null, inputs.standardInput());
        assertFalse(inputs.targets().files().isEmpty());
      }
    }
  }

  @Test
  void theTemporaryFileThatHeldStandardInputIsDeleted() throws IOException {
    StandardInput pipe = new StandardInput(new java.io.ByteArrayInputStream("ab".getBytes()), true);
    Path copy;
    try (ScanInputs inputs = ScanInputs.of(List.of("-"), dev.vyre.scan.ScanFilter.NONE, pipe, false, false, Path.of(""))) {
      copy = inputs.standardInput();
      assertTrue(Files.exists(copy));
    }
    assertFalse(Files.exists(copy));
  }

  /** {@code vyre scan X < FILE}: the file is scanned in place, named as stdin; after a read, from where it was left. */
  @Test
  void aFileAsStandardInputIsScannedFromWhereItStands() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash");
    Path file = Files.writeString(dir.resolve("in.txt"), "ab\nx ab\n");
    String vyre = "\"$1\" --enable-native-access=ALL-UNNAMED -cp \"$2\" " + VyreCommand.class.getName()
        + " scan --backend=reference -n ab";
    List<String> command = List.of("bash", "-c", vyre + " < \"$3\"; (read -r first; " + vyre + ") < \"$3\"", "bash",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), System.getProperty("java.class.path"),
        file.toString());
    Process process = new ProcessBuilder(command).start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), err);
    // The second scan starts after the line read: offsets and lines count from there, as grep's do.
    assertEquals("(standard input):1:0:ab\n(standard input):2:5:ab\n(standard input):1:2:ab\n", out, err);
  }

  @Test
  void patternsFromStandardInputWithDashF() throws IOException {
    Path file = Files.writeString(dir.resolve("p.txt"), "one ab two cd_e\n");
    CliRun run = CliRun.withStdin("cd_e\r\nab\n", "scan", "--backend=reference", "-f", "-", file.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(file + ":4:ab\n" + file + ":11:cd_e\n", run.out());
    CliRun blank = CliRun.withStdin("ab\n\n", "scan", "--backend=reference", "-f", "-", file.toString());
    assertEquals(2, blank.status());
    assertTrue(blank.err().startsWith("vyre: (standard input):2: empty pattern") && blank.err().contains("Fix: "),
        blank.err());
    CliRun both = CliRun.withStdin("ab\n", "scan", "--backend=reference", "-f", "-", "-");
    assertEquals(2, both.status());
    assertEquals("vyre: -: standard input holds the patterns (-f -), so it cannot also be scanned. Fix: pass the"
        + " patterns with -f FILE, or save the input to a file and scan that\n", both.err());
  }

  /** grep's -i prints the text matched; vyre scan the pattern as given (said in --help). */
  @Test
  void ignoreCasePrintsThePatternAsGiven() throws IOException {
    Path file = Files.writeString(dir.resolve("case.txt"), "AB ab Ab");
    CliRun run = CliRun.of("scan", "--backend=reference", "-i", "-w", "-n", "-e", "aB", file.toString());
    assertEquals(file + ":1:0:aB\n" + file + ":1:3:aB\n" + file + ":1:6:aB\n", run.out(), run.err());
  }

  @Test
  void aClosedPipeEndsTheScanQuietlyAtItsFirstFailedWriteWithGrepsStatus() throws IOException {
    for (int i = 0; i < 20; i++) {
      Files.writeString(dir.resolve("hits" + i), "ab".repeat(20_000));
    }
    CliRun.FailingOutput pipe = new CliRun.FailingOutput("Broken pipe");
    CliRun run = CliRun.withStdout(new ProcessStdout(pipe, StandardCharsets.UTF_8), "scan", "--backend=reference",
        "-e", "ab", dir.toString());
    assertEquals(ProcessStdout.CLOSED_PIPE_STATUS, run.status(), run.err());
    assertEquals("", run.err());
    assertEquals(1, pipe.writes, "the scan stops at the first failed write");
  }

  /** The real thing: {@code vyre scan ... | head -c 1} in a shell, whose status for grep is 141 too. */
  @Test
  void aClosedPipeInAShellEndsVyreAsItEndsGrep() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash");
    for (int i = 0; i < 20; i++) {
      Files.writeString(dir.resolve("hits" + i), "ab".repeat(50_000));
    }
    List<String> command = List.of("bash", "-c", "\"$@\" | head -c 1 >/dev/null; echo \"${PIPESTATUS[0]}\"", "bash",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
        System.getProperty("java.class.path"), VyreCommand.class.getName(), "scan", "--backend=reference", "-e", "ab", dir.toString());
    Process process = new ProcessBuilder(command).start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), err);
    assertEquals("141\n", out, err);
    assertEquals("", err);
  }

  @Test
  void grepOptionsVyreScanLacksSayWhyAndWhatToUse() {
    for (String[] args : new String[][] {{"-v"}, {"-iv"}, {"--invert-match"}}) {
      CliRun run = CliRun.scanOnReference(args[0], "ab", dir.toString());
      assertEquals(2, run.status());
      assertTrue(run.err().startsWith("vyre scan: -" + (args[0].startsWith("--") ? "-invert-match" : "v")
          + " (grep's -v, --invert-match: invert the match): vyre scan does not support inverted matching"), run.err());
      assertTrue(run.err().endsWith("Fix: list the files without a match with -L, or use grep -v for the lines without"
          + " one\n"), run.err());
    }
    for (String[] option : new String[][] {{"-A3", "-A"}, {"-C", "-C"}, {"-E", "-E"}, {"-P", "-P"}, {"-x", "-x"},
        {"--color=auto", "--color"}, {"-R", "-R"}, {"-z", "-z"}}) {
      CliRun run = CliRun.scanOnReference(option[0], "ab", dir.toString());
      assertEquals(2, run.status());
      assertTrue(run.err().startsWith("vyre scan: " + option[1] + " (grep's "), run.err());
      assertEquals(1, run.err().lines().count(), run.err());
      assertTrue(run.err().contains(". Fix: "), run.err());
    }
    // Not a grep option: picocli's message and its suggestions.
    CliRun unknown = CliRun.scanOnReference("--frob", "ab", dir.toString());
    assertTrue(unknown.err().startsWith("vyre scan: Unknown option: '--frob'. Fix: run `vyre scan --help`"),
        unknown.err());
  }

  @Test
  void helpSaysWhereVyreScanDiffersFromGrep() {
    String help = CliRun.of("scan", "--help").out();
    assertTrue(help.contains("Where vyre scan differs from grep:"), help);
    assertTrue(help.contains("overlapping ones too"), help);
    assertTrue(help.contains("-c and -m count matches, not lines"), help);
    assertTrue(help.contains("With -i a match prints the pattern as given"), help);
    assertTrue(help.contains("-h, --no-filename"), help);
  }

  private void compare(List<String> options, String... paths) throws Exception {
    compare(options, null, paths);
  }

  /**
   * Runs {@code grep -r -F -a [-o -b] options -e P... paths} in the C locale and {@code vyre scan
   * options -e P... paths} with {@code stdin} (null: a terminal) and compares their exit status and
   * their output's records, sorted: lines, or with -Z -l/-L the names each NUL ends. Without -c,
   * -l, -L or -q grep also gets -o -b, and -H unless -h is given, vyre scan's layout.
   */
  private void compare(List<String> options, byte[] stdin, String... paths) throws Exception {
    Result grep = grep(options, stdin, paths);
    Result vyre = vyre(options, stdin, paths);
    String context = options + " " + List.of(paths) + "\ngrep: " + grep.err() + "\nvyre: " + vyre.err();
    assertEquals(grep.status(), vyre.status(), context);
    boolean zeroEnded = options.contains("-Z") && options.stream().anyMatch(o -> o.equals("-l") || o.equals("-L"));
    assertEquals(records(grep.out(), zeroEnded), records(vyre.out(), zeroEnded), context);
  }

  private record Result(int status, String out, String err) {}

  private Result grep(List<String> options, String... paths) throws Exception {
    return grep(options, null, paths);
  }

  private Result grep(List<String> options, byte[] stdin, String... paths) throws Exception {
    List<String> command = new ArrayList<>(List.of("grep", "-F", "-a"));
    // grep -r with no PATH scans the current directory, not stdin.
    if (paths.length > 0) {
      command.add("-r");
    }
    boolean eachMatch = options.stream().noneMatch(o -> o.matches("-[clLq]|--count|--quiet"));
    if (eachMatch) {
      command.addAll(List.of("-o", "-b"));
    }
    boolean names = options.stream().noneMatch(o -> o.equals("-h") || o.equals("--no-filename"))
        || options.lastIndexOf("-H") > Math.max(options.lastIndexOf("-h"), options.lastIndexOf("--no-filename"));
    if (names && (eachMatch || options.contains("-c"))) {
      command.add("-H");
    }
    command.addAll(options);
    for (String pattern : PATTERNS) {
      command.addAll(List.of("-e", pattern));
    }
    command.addAll(List.of(paths));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("LC_ALL", "C");
    Process process = builder.start();
    try (OutputStream in = process.getOutputStream()) {
      if (stdin != null) {
        in.write(stdin);
      }
    }
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(process.waitFor(), out, err);
  }

  private Result vyre(List<String> options, String... paths) {
    return vyre(options, null, paths);
  }

  private Result vyre(List<String> options, byte[] stdin, String... paths) {
    List<String> args = new ArrayList<>(List.of("scan", "--backend=reference"));
    args.addAll(options);
    for (String pattern : PATTERNS) {
      args.addAll(List.of("-e", pattern));
    }
    args.addAll(List.of(paths));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CliRun run = stdin == null ? CliRun.withStdout(out, args.toArray(String[]::new))
        : CliRun.withStdinAndStdout(new java.io.ByteArrayInputStream(stdin), out, args.toArray(String[]::new));
    return new Result(run.status(), out.toString(StandardCharsets.ISO_8859_1), run.err());
  }

  /** The output's records, sorted (grep walks in directory order, vyre scan in name order). */
  private static List<String> records(String out, boolean zeroEnded) {
    List<String> records = zeroEnded ? Arrays.asList(out.split("\0")) : out.lines().toList();
    return records.stream().filter(record -> !record.isEmpty()).sorted().toList();
  }
}

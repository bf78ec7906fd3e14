package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vyre scan} against GNU grep ({@code grep -r -F}, 3.5 or later, in C.UTF-8) for the options
 * grep users reach for: -l, -L, -q, -s, -m, -c, --include, --exclude and --exclude-dir, alone and
 * combined, over a tree with nested and hidden directories, hidden, binary and empty files, a name
 * that is not UTF-8 and one that is, beside an unreadable file and directory (which root reads, grep
 * and vyre alike) and paths that do not exist. Compared: the exit status, stdout's lines (sorted: grep walks in directory
 * order, vyre in name order) and stderr's lines without the program's prefix. The one pattern occurs
 * at most once per line, so that grep's line counts (-c, -m) equal vyre's match counts, and plain
 * output is compared with {@code grep -o -b -H -a}, which prints vyre's {@code path:offset:pattern}.
 */
class ScanGrepDifferentialTest {

  private static final String GREP_VERSION = grepVersion();

  @TempDir Path dir;
  private Path tree;
  private Path unreadable;
  private Path lockedDirectory;
  private Path lockedFile;

  /** {@code grep -V}'s first line, or why there is none. */
  static String grepVersion() {
    try {
      Process grep = new ProcessBuilder("grep", "-V").redirectErrorStream(true).start();
      String version = new String(grep.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().findFirst()
          .orElse("");
      return grep.waitFor() == 0 ? version : "grep -V failed: " + version;
    } catch (IOException | InterruptedException e) {
      return "no grep: " + e;
    }
  }

  @BeforeEach
  void tree() throws Exception {
    // -L's exit status changed in 3.2 and back in 3.5.
    Matcher version = Pattern.compile("GNU grep\\) (\\d+)\\.(\\d+)").matcher(GREP_VERSION);
    Assumptions.assumeTrue(version.find() && Integer.parseInt(version.group(1)) * 100
        + Integer.parseInt(version.group(2)) >= 305, "needs GNU grep 3.5 or later to compare with: " + GREP_VERSION);
    tree = Files.createDirectory(dir.resolve("tree"));
    write("a.txt", "key\nnone\nkey\n");
    write("b.log", "none\n");
    write(".hidden.txt", "key\n");
    write(".hid/e.txt", "key\n");
    write("sub/c.txt", "xx key\n");
    write("sub/deep/d.log", "key\nkey\nkey\n");
    write("sub/deep/empty", "");
    write("skip/g.txt", "key\n");
    write("é.txt", "none\n");
    Files.write(tree.resolve("bin.dat"), new byte[] {0, 'k', 'e', 'y', 0, '\n', 0});
    // By shell: a Java String cannot name a file whose name is not UTF-8.
    Process sh = new ProcessBuilder("sh", "-c", "printf 'key\\n' > \"$1/$(printf 'n\\377.bin')\"", "sh", tree.toString())
        .inheritIO().start();
    assertEquals(0, sh.waitFor());
    unreadable = Files.createDirectory(dir.resolve("unreadable"));
    lockedFile = Files.writeString(unreadable.resolve("locked.txt"), "key\n");
    lockedDirectory = Files.createDirectory(unreadable.resolve("locked-dir"));
    Files.writeString(lockedDirectory.resolve("f.txt"), "key\n");
    Files.setPosixFilePermissions(lockedFile, PosixFilePermissions.fromString("---------"));
    Files.setPosixFilePermissions(lockedDirectory, PosixFilePermissions.fromString("---------"));
  }

  @AfterEach
  void unlock() throws IOException {
    Files.setPosixFilePermissions(lockedDirectory, PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(lockedFile, PosixFilePermissions.fromString("rw-------"));
  }

  private Path write(String name, String content) throws IOException {
    Path path = tree.resolve(name);
    Files.createDirectories(path.getParent());
    return Files.writeString(path, content);
  }

  @Test
  void outputModesAndExitStatusesEqualGreps() throws Exception {
    String t = tree.toString();
    String missing = dir.resolve("missing").toString();
    compare("key", t);
    compare("-c", "key", t);
    compare("-l", "key", t);
    compare("-L", "key", t);
    compare("-L", "zzz", t);
    compare("-c", "-l", "key", t);
    compare("-L", "-c", "key", t);
    compare("-l", "-L", "key", t);
    compare("-L", "-l", "key", t);
    compare("-l", "zzz", t);
    compare("-l", "key", missing, t);
    compare("-L", "key", missing, t);
    compare("-l", "key", unreadable.toString(), t);
    compare("-L", "key", unreadable.toString(), t);
  }

  @Test
  void quietAndNoMessagesEqualGreps() throws Exception {
    String t = tree.toString();
    String missing = dir.resolve("missing").toString();
    compare("-q", "key", t);
    compare("-q", "zzz", t);
    compare("-q", "key", missing, t);
    compare("-q", "zzz", missing, t);
    compare("--quiet", "-l", "key", t);
    compare("--silent", "-c", "-L", "key", t);
    compare("-s", "key", missing, t);
    compare("-s", "-l", "zzz", missing, t);
    compare("--no-messages", "-q", "key", missing, t);
    compare("-s", "-q", "zzz", missing);
    compare("-s", "-c", "key", missing, t + "/sub/deep");
    compare("-s", "-l", "key", unreadable.toString(), t);
    compare("-s", "key", unreadable.toString(), missing);
    compare("-q", "key", unreadable.toString());
    compare("-q", "-s", "key", unreadable.toString());
  }

  @Test
  void maxCountEqualsGrepsWhereEachLineHoldsOneMatch() throws Exception {
    String t = tree.toString();
    String missing = dir.resolve("missing").toString();
    compare("-m", "1", "key", t);
    compare("-m", "2", "-c", "key", t);
    compare("--max-count=2", "key", t);
    compare("-m", "1", "-l", "key", t);
    compare("-m", "1", "-L", "key", t);
    compare("-m", "0", "key", t, missing);
    compare("-m", "0", "-c", "key", t);
    compare("-m", "0", "-L", "key", t);
    compare("-m", "0", "-q", "key", t);
    compare("-m", "-1", "-c", "key", t);
  }

  @Test
  void includeExcludeAndExcludeDirEqualGreps() throws Exception {
    String t = tree.toString();
    for (String[] options : new String[][] {
        {"--include=*.txt"}, {"--include", "*.log", "--include=*.dat"}, {"--exclude=*.txt"}, {"--exclude=.*"},
        {"--include=*.txt", "--exclude=a*"}, {"--exclude=a*", "--include=*.txt"}, {"--include=a*", "--exclude=*.txt"},
        {"--include=?.txt"}, {"--include=??.txt"}, {"--include=n*"}, {"--include=[!a-m]*"}, {"--exclude=*[[:digit:]]*"},
        {"--include=\\a.txt"}, {"--exclude-dir=sub"}, {"--exclude-dir=deep"}, {"--exclude-dir=.*"},
        {"--exclude-dir=sub/"}, {"--exclude-dir=*"}, {"--exclude-dir=s*", "--include=*.log"}}) {
      List<String> args = new ArrayList<>(List.of(options));
      args.addAll(List.of("-l", "key", t));
      compare(args.toArray(String[]::new));
      args.set(args.size() - 3, "-c");
      compare(args.toArray(String[]::new));
    }
  }

  /** A path named on the command line is matched by its whole name or by a suffix after a slash. */
  @Test
  void namedPathsMeetTheFiltersAsInGrep() throws Exception {
    String t = tree.toString();
    compare("-l", "--include=*.txt", "key", t + "/b.log", t + "/a.txt");
    compare("-l", "--exclude=a.txt", "key", t + "/a.txt", t + "/sub/c.txt");
    compare("-l", "--exclude=sub/c.txt", "key", t + "/sub/c.txt");
    compare("-l", "--exclude=ub/c.txt", "key", t + "/sub/c.txt");
    compare("-l", "--exclude-dir=sub", "key", t + "/sub", t + "/skip");
    compare("-l", "--exclude-dir=tree", "key", t + "/sub");
    compare("-l", "--exclude-dir=deep", "key", t + "/sub");
    compare("-l", "--exclude=*.txt", "key", dir.resolve("missing.txt").toString());
    compare("-l", "--exclude-dir=missing", "key", dir.resolve("missing").toString());
  }

  /**
   * Runs {@code grep -r -F args} and {@code vyre scan args} and compares them. Plain output (no -c,
   * -l, -L or -q) asks grep for -o -b -H -a: each match as {@code path:offset:match}, binary files
   * like text.
   */
  private void compare(String... args) throws Exception {
    List<String> grep = new ArrayList<>(List.of("grep", "-r", "-F"));
    if (Arrays.stream(args).noneMatch(a -> a.matches("-[clLq]|--quiet|--silent"))) {
      grep.addAll(List.of("-o", "-b", "-H", "-a"));
    }
    grep.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(grep);
    builder.environment().put("LC_ALL", "C.UTF-8");
    Process process = builder.start();
    process.getOutputStream().close();
    // stdout first: stderr holds a few lines, far below a pipe's buffer.
    byte[] grepOut = process.getInputStream().readAllBytes();
    byte[] grepErr = process.getErrorStream().readAllBytes();
    int grepStatus = process.waitFor();

    List<String> vyre = new ArrayList<>(List.of("scan", "--backend=reference"));
    vyre.addAll(List.of(args));
    ByteArrayOutputStream vyreOut = new ByteArrayOutputStream();
    CliRun run = CliRun.withStdout(vyreOut, vyre.toArray(String[]::new));

    String context = String.join(" ", args) + "\ngrep stderr: " + new String(grepErr, StandardCharsets.UTF_8)
        + "\nvyre stderr: " + run.err();
    assertEquals(grepStatus, run.status(), context);
    assertEquals(lines(grepOut), lines(vyreOut.toByteArray()), context);
    assertEquals(messages(new String(grepErr, StandardCharsets.UTF_8), "grep: "), messages(run.err(), "vyre scan: "),
        context);
  }

  /** Lines as ISO-8859-1 strings (one char per byte, so names that are not UTF-8 compare exactly), sorted. */
  private static List<String> lines(byte[] out) {
    String text = new String(out, StandardCharsets.ISO_8859_1);
    return text.isEmpty() ? List.of() : text.lines().sorted().toList();
  }

  /** A message without its prefix and, for vyre's, without the Fix that grep's lack. */
  private static final Pattern MESSAGE = Pattern.compile("^(?:grep: |vyre scan: )(.*?)(?:\\. Fix: .*)?$");

  private static List<String> messages(String err, String prefix) {
    List<String> messages = new ArrayList<>();
    for (String line : err.lines().toList()) {
      Matcher matcher = MESSAGE.matcher(line);
      assertEquals(true, line.startsWith(prefix) && matcher.matches(), "a message from " + prefix + line);
      messages.add(matcher.group(1));
    }
    return messages.stream().sorted().toList();
  }
}

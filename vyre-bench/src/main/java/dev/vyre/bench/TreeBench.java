package dev.vyre.bench;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code vyre bench tree}: {@code vyre scan} on a real tree against ripgrep and GNU grep, as a user
 * runs them: each a fresh process, wall time from start to exit, page cache warm. Patterns are
 * identifiers drawn from the tree itself (every k-th of its distinct identifiers of six or more
 * characters, most frequent first, so common and rare ones both appear). vyre runs one-shot
 * ({@code --no-server}) and through a {@code vyre serve} of the same backend that the bench starts
 * on a private socket and times once its warm-up scans are done.
 * Before timing, every contender's set of files with a match ({@code -l}) must
 * equal vyre's one-shot set; a contender that disagrees is reported, not timed.
 */
public final class TreeBench {

  private static final int IDENTIFIER_MIN = 6;

  /**
   * @param vyre the command that starts this vyre (java, its options, the main class or jar)
   * @param service also measure scans through a {@code vyre serve} the bench starts
   */
  public record Settings(Path tree, List<Integer> literals, String backend, int runs, boolean service, List<String> vyre) {}

  /** One contender: how it counts and how it lists the files with a match. */
  private record Contender(String name, List<String> count, List<String> list, Map<String, String> environment) {}

  private static final String SERVED = "vyre through serve";
  private static final Pattern SERVED_LINE = Pattern.compile("scans: (\\d+) served");
  private static final Pattern LISTENING_LINE = Pattern.compile("listening at .*?\\(pid \\d+; (.*?); \\d+ scans at once");

  private TreeBench() {}

  /** Measures every contender on {@code settings.tree()}, printing a row each; returns the measures. */
  public static Map<String, Object> run(Settings settings, PrintStream out) throws IOException, InterruptedException {
    if (!Files.isDirectory(settings.tree())) {
      throw InputException.of(settings.tree().toString(), "not a directory", "pass the root of a source tree, e.g. the"
          + " JDK's lib/src.zip unzipped");
    }
    if (settings.runs() < 1 || settings.literals().stream().anyMatch(n -> n < 1)) {
      throw InputException.of("--runs/--literals", "runs and pattern counts must be at least 1", "pass --runs 5"
          + " --literals 100,1000");
    }
    List<String> files = new ArrayList<>(List.of("listed.txt", "service.log", "scan.sock"));
    settings.literals().forEach(count -> files.add("patterns-" + count + ".txt"));
    Map<String, Object> results = new LinkedHashMap<>();
    try (BenchWorkDirectory work = BenchWorkDirectory.open(null, "vyre-bench-tree-", files.toArray(String[]::new))) {
      List<String> identifiers = identifiers(settings.tree());
      results.put("tree", settings.tree().toString());
      results.put("tree_files", countFiles(settings.tree()));
      results.put("cores", Runtime.getRuntime().availableProcessors());
      results.put("identifiers", identifiers.size());
      // The temporary directory is private to this user (0700), as vyre serve requires of its socket's.
      Path socket = work.resolve("scan.sock");
      Process service = settings.service() ? startService(settings, socket, work.resolve("service.log")) : null;
      try {
        if (service != null) {
          // Which kernel the served scans run on: the service's own words, as it printed them on listening.
          String kernel = serviceKernel(work.resolve("service.log"));
          out.println("vyre bench tree: the service's kernel: " + kernel);
          results.put("service_kernel", kernel);
        }
        out.printf("%-8s %-22s %10s %22s %10s  %s%n", "literals", "contender", "median s", "range s", "vs rg", "-l set");
        for (int count : settings.literals()) {
          Path patterns = work.resolve("patterns-" + count + ".txt");
          Files.write(patterns, draw(identifiers, count), StandardCharsets.UTF_8);
          measure(settings, count, contenders(settings, patterns, socket), service != null ? socket : null, results,
              work.resolve("listed.txt"), out);
        }
      } finally {
        if (service != null) {
          service.destroy();
          service.waitFor(30, TimeUnit.SECONDS);
        }
      }
    }
    return results;
  }

  private static List<Contender> contenders(Settings settings, Path patterns, Path socket) {
    List<Contender> all = new ArrayList<>();
    String p = patterns.toString();
    String t = settings.tree().toString();
    String b = settings.backend();
    all.add(new Contender("vyre one-shot", vyre(settings, "scan", "--no-server", "--backend", b, "--count", "-f", p, t),
        vyre(settings, "scan", "--no-server", "--backend", b, "-l", "-f", p, t), Map.of()));
    if (settings.service()) {
      all.add(new Contender(SERVED, vyre(settings, "scan", "--backend", b, "--count", "-f", p, t),
          vyre(settings, "scan", "--backend", b, "-l", "-f", p, t), Map.of("VYRE_SOCKET", socket.toString())));
    }
    if (onPath("rg")) {
      all.add(new Contender("rg", List.of("rg", "-uuu", "-a", "-F", "-c", "-f", p, t),
          List.of("rg", "-uuu", "-a", "-F", "-l", "-f", p, t), Map.of()));
    }
    if (onPath("grep")) {
      all.add(new Contender("grep", List.of("grep", "-r", "-a", "-F", "-c", "-f", p, t),
          List.of("grep", "-r", "-a", "-F", "-l", "-f", p, t), Map.of("LC_ALL", "C")));
    }
    return all;
  }

  private static List<String> vyre(Settings settings, String... arguments) {
    List<String> command = new ArrayList<>(settings.vyre());
    command.addAll(List.of(arguments));
    return command;
  }

  private static Process startService(Settings settings, Path socket, Path log) throws IOException, InterruptedException {
    Process service = new ProcessBuilder(vyre(settings, "serve", "--backend", settings.backend(), "--socket",
        socket.toString())).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline && service.isAlive()
        && !(Files.exists(log) && Files.readString(log).contains("listening"))) {
      Thread.sleep(50);
    }
    if (!service.isAlive() || !Files.readString(log).contains("listening")) {
      service.destroy();
      throw InputException.of("vyre serve", "the bench's service did not start: " + Files.readString(log).strip(),
          "run vyre bench tree --no-service, or check vyre serve on its own");
    }
    // A resident service is measured ready, as a user meets it: after its warm-up scans.
    while (System.nanoTime() < deadline && service.isAlive() && !Files.readString(log).contains("warm-up")) {
      Thread.sleep(50);
    }
    return service;
  }


  /** What the service's listening line says of its kernel ("... (pid N; KERNEL; M scans at once) ..."). */
  private static String serviceKernel(Path log) throws IOException {
    Matcher listening = LISTENING_LINE.matcher(Files.readString(log));
    return listening.find() ? listening.group(1) : "(not in its log)";
  }

  /** The scans the service at {@code socket} has served so far, from {@code vyre serve --status}. */
  private static long servedScans(Settings settings, Path socket) throws IOException, InterruptedException {
    Process status = new ProcessBuilder(vyre(settings, "serve", "--status", "--socket", socket.toString()))
        .redirectErrorStream(true).start();
    String text = new String(status.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    status.waitFor();
    Matcher served = SERVED_LINE.matcher(text);
    if (!served.find()) {
      throw InputException.of("vyre serve --status", "no 'scans: N served' line in: " + text.strip(),
          "check vyre serve on its own, or run vyre bench tree --no-service");
    }
    return Long.parseLong(served.group(1));
  }

  /**
   * Lists, checks and times {@code contenders} for {@code count} literals. With a {@code socket}, the
   * served contender's row counts only if the service served every one of its scans: a client falls
   * back to scanning alone when the service cannot serve it, and would be timed as one-shot.
   */
  private static void measure(Settings settings, int count, List<Contender> contenders, Path socket,
      Map<String, Object> results, Path listedFile, PrintStream out)
      throws IOException, InterruptedException {
    long servedBefore = socket != null ? servedScans(settings, socket) : 0;
    List<String> expected = null;
    List<Contender> timed = new ArrayList<>();
    Map<String, String> agreement = new HashMap<>();
    for (Contender contender : contenders) {
      List<String> listed = listed(contender, listedFile);
      if (expected == null) {
        expected = listed;
      }
      boolean same = listed.equals(expected);
      agreement.put(contender.name, same ? "equal (" + listed.size() + " files)" : "DIFFERS (" + listed.size() + " files)");
      if (same) {
        timed.add(contender);
      }
    }
    Map<String, double[]> seconds = new LinkedHashMap<>();
    timed.forEach(contender -> seconds.put(contender.name, new double[settings.runs()]));
    for (int run = 0; run < settings.runs(); run++) {
      for (Contender contender : timed) {
        seconds.get(contender.name)[run] = wallSeconds(contender.count, contender.environment);
      }
    }
    boolean notServed = false;
    if (socket != null && seconds.containsKey(SERVED)) {
      long served = servedScans(settings, socket) - servedBefore;
      notServed = served < 1 + settings.runs();
      if (notServed) {
        seconds.remove(SERVED);
        agreement.put(SERVED, "NOT SERVED: the service served " + served + " of " + (1 + settings.runs())
            + " scans (see its log); the rest ran alone");
      }
    }
    double rg = seconds.containsKey("rg") ? median(seconds.get("rg")) : Double.NaN;
    for (Contender contender : contenders) {
      double[] s = seconds.get(contender.name);
      String key = count + "_" + contender.name.replace(' ', '_').replace("-", "");
      if (s == null) {
        out.printf("%-8d %-22s %10s %22s %10s  %s%n", count, contender.name, "-", "-", "-", agreement.get(contender.name));
        results.put(key + (notServed && contender.name.equals(SERVED) ? "_served" : "_agrees"), false);
        continue;
      }
      double[] sorted = s.clone();
      Arrays.sort(sorted);
      double median = median(s);
      out.printf("%-8d %-22s %10.3f %22s %10s  %s%n", count, contender.name, median,
          String.format("%.3f-%.3f", sorted[0], sorted[sorted.length - 1]),
          Double.isNaN(rg) ? "-" : String.format("%.2fx", median / rg), agreement.get(contender.name));
      results.put(key + "_seconds", median);
      results.put(key + "_agrees", true);
    }
  }


  /** The sorted paths a contender lists with -l. */
  private static List<String> listed(Contender contender, Path output) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(contender.list).redirectOutput(output.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(contender.environment);
    builder.start().waitFor();
    List<String> lines = new ArrayList<>(Files.readAllLines(output, StandardCharsets.ISO_8859_1));
    lines.sort(null);
    return lines;
  }


  private static double wallSeconds(List<String> command, Map<String, String> environment)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(environment);
    long started = System.nanoTime();
    builder.start().waitFor();
    return (System.nanoTime() - started) / 1e9;
  }


  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[(sorted.length - 1) / 2];
  }


  /** The tree's distinct identifiers of six or more characters, most frequent first, then by name. */
  public static List<String> identifiers(Path tree) throws IOException {
    Map<String, Integer> counts = new HashMap<>();
    try (Stream<Path> files = Files.walk(tree)) {
      files.filter(Files::isRegularFile).forEach(file -> {
        byte[] bytes;
        try {
          bytes = Files.readAllBytes(file);
        } catch (IOException unreadable) {
          return;
        }
        int start = -1;
        for (int i = 0; i <= bytes.length; i++) {
          int b = i < bytes.length ? bytes[i] & 0xFF : ' ';
          boolean word = b == '_' || Character.isLetter(b) && b < 0x80 || start >= 0 && b >= '0' && b <= '9';
          if (word && start < 0) {
            start = i;
          } else if (!word && start >= 0) {
            if (i - start >= IDENTIFIER_MIN) {
              counts.merge(new String(bytes, start, i - start, StandardCharsets.US_ASCII), 1, Integer::sum);
            }
            start = -1;
          }
        }
      });
    }
    List<String> sorted = new ArrayList<>(counts.keySet());
    sorted.sort((a, b) -> counts.get(a).equals(counts.get(b)) ? a.compareTo(b) : counts.get(b) - counts.get(a));
    return sorted;
  }


  /** Every k-th of {@code identifiers}, {@code count} of them (all when there are fewer). */
  public static List<String> draw(List<String> identifiers, int count) {
    int step = Math.max(1, identifiers.size() / count);
    List<String> drawn = new ArrayList<>();
    for (int i = 0; i < identifiers.size() && drawn.size() < count; i += step) {
      drawn.add(identifiers.get(i));
    }
    return drawn;
  }


  private static long countFiles(Path tree) throws IOException {
    try (Stream<Path> files = Files.walk(tree)) {
      return files.filter(Files::isRegularFile).count();
    }
  }


  private static boolean onPath(String program) {
    String path = System.getenv("PATH");
    return path != null && Arrays.stream(path.split(":")).anyMatch(dir -> Files.isExecutable(Path.of(dir, program)));
  }
}

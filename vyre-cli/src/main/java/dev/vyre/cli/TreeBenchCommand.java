package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code vyre bench tree}: {@code vyre scan} on a real tree against ripgrep and GNU grep, as a user
 * runs them: each a fresh process, wall time from start to exit, page cache warm. Patterns are
 * identifiers drawn from the tree itself (every k-th of its distinct identifiers of six or more
 * characters, most frequent first, so common and rare ones both appear). vyre runs one-shot
 * ({@code --no-server}) and through a {@code vyre serve} of the same backend that the bench starts
 * on a private socket. Before timing, every contender's set of files with a match ({@code -l}) must
 * equal vyre's one-shot set; a contender that disagrees is reported, not timed.
 */
@Command(name = "tree", mixinStandardHelpOptions = true,
    description = "vyre scan on a real tree against ripgrep and grep: one-shot, through vyre serve, wall times, -l sets checked.")
final class TreeBenchCommand implements Callable<Integer> {

  private static final int IDENTIFIER_MIN = 6;

  @Parameters(paramLabel = "DIR", description = "The tree to scan, e.g. the JDK's sources (lib/src.zip unzipped).")
  Path tree;

  @Option(names = "--literals", split = ",", defaultValue = "100,1000,10000", paramLabel = "N,...",
      description = "Pattern counts, one row each (default: ${DEFAULT-VALUE}).")
  List<Integer> literals;

  @Option(names = "--backend", defaultValue = "auto", description = "The backend of vyre's rows (default: ${DEFAULT-VALUE}).")
  String backend;

  @Option(names = "--runs", defaultValue = "5", description = "Timed runs of each contender, alternating (default: ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--no-service", description = "Leave out the rows through vyre serve.")
  boolean noService;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON to this file.")
  Path json;

  /** One contender: how it counts and how it lists the files with a match. */
  private record Contender(String name, List<String> count, List<String> list, Map<String, String> environment) {}

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    if (!Files.isDirectory(tree)) {
      throw InputException.of(tree.toString(), "not a directory", "pass the root of a source tree, e.g. the JDK's"
          + " lib/src.zip unzipped");
    }
    if (runs < 1 || literals.stream().anyMatch(n -> n < 1)) {
      throw InputException.of("--runs/--literals", "runs and pattern counts must be at least 1", "pass --runs 5"
          + " --literals 100,1000");
    }
    OutputFiles.requireWritable("--json", json);
    Path work = Files.createTempDirectory("vyre-bench-tree-");
    Process service = null;
    Map<String, Object> results = new LinkedHashMap<>();
    try {
      List<String> identifiers = identifiers(tree);
      results.put("tree", tree.toString());
      results.put("tree_files", countFiles(tree));
      results.put("cores", Runtime.getRuntime().availableProcessors());
      results.put("identifiers", identifiers.size());
      Path socket = work.resolve("service").resolve("scan.sock");
      if (!noService) {
        service = startService(socket, work.resolve("service.log"));
      }
      out.printf("%-8s %-22s %10s %22s %10s  %s%n", "literals", "contender", "median s", "range s", "vs rg", "-l set");
      for (int count : literals) {
        Path patterns = work.resolve("patterns-" + count + ".txt");
        Files.write(patterns, draw(identifiers, count), StandardCharsets.UTF_8);
        measure(count, contenders(patterns, socket), results, work, out);
      }
    } finally {
      if (service != null) {
        service.destroy();
        service.waitFor(30, TimeUnit.SECONDS);
      }
      deleteTree(work);
    }
    BenchResults.writeJson(json, results);
    return 0;
  }

  private List<Contender> contenders(Path patterns, Path socket) {
    List<Contender> all = new ArrayList<>();
    String p = patterns.toString();
    String t = tree.toString();
    all.add(new Contender("vyre one-shot", vyre("--no-server", "--backend", backend, "--count", "-f", p, t),
        vyre("--no-server", "--backend", backend, "-l", "-f", p, t), Map.of()));
    if (!noService) {
      all.add(new Contender("vyre through serve", vyre("--backend", backend, "--count", "-f", p, t),
          vyre("--backend", backend, "-l", "-f", p, t), Map.of("VYRE_SOCKET", socket.toString())));
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

  private void measure(int count, List<Contender> contenders, Map<String, Object> results, Path work, PrintStream out)
      throws IOException, InterruptedException {
    List<String> expected = null;
    List<Contender> timed = new ArrayList<>();
    Map<String, String> agreement = new HashMap<>();
    for (Contender contender : contenders) {
      List<String> listed = listed(contender, work.resolve("listed.txt"));
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
    timed.forEach(contender -> seconds.put(contender.name, new double[runs]));
    for (int run = 0; run < runs; run++) {
      for (Contender contender : timed) {
        seconds.get(contender.name)[run] = wallSeconds(contender.count, contender.environment);
      }
    }
    double rg = seconds.containsKey("rg") ? median(seconds.get("rg")) : Double.NaN;
    for (Contender contender : contenders) {
      double[] s = seconds.get(contender.name);
      String key = count + "_" + contender.name.replace(' ', '_').replace("-", "");
      if (s == null) {
        out.printf("%-8d %-22s %10s %22s %10s  %s%n", count, contender.name, "-", "-", "-", agreement.get(contender.name));
        results.put(key + "_agrees", false);
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

  /** This vyre as a fresh process: the same java and class path as this one. */
  private static List<String> vyre(String... scanArguments) {
    List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), VyreCommand.class.getName(),
        "scan"));
    command.addAll(List.of(scanArguments));
    return command;
  }

  private Process startService(Path socket, Path log) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(vyre());
    command.set(command.size() - 1, "serve");
    command.addAll(List.of("--backend", backend, "--socket", socket.toString()));
    Process service = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
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
    return service;
  }

  /** The tree's distinct identifiers of six or more characters, most frequent first, then by name. */
  static List<String> identifiers(Path tree) throws IOException {
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
  static List<String> draw(List<String> identifiers, int count) {
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

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(path -> path.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // A temporary directory; the next run makes a new one.
    }
  }
}

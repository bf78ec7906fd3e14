package dev.vyre.cli;

import dev.vyre.bench.TreeBench;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vyre bench tree}: the options of {@link TreeBench}, which measures. */
@Command(name = "tree", mixinStandardHelpOptions = true,
    description = "vyre scan on a real tree against ripgrep and grep: one-shot, through vyre serve, wall times, -l sets checked.")
final class TreeBenchCommand implements Callable<Integer> {

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

  @Override
  public Integer call() throws Exception {
    OutputFiles.requireWritable("--json", json);
    // This vyre as a fresh process, started as a user starts it: through the ./vyre launcher (its JVM options and
    // ahead-of-time caches) when the bench was, else with this JVM's java and class path.
    String launcher = System.getenv("VYRE_LAUNCHER");
    List<String> vyre = launcher != null && Files.isExecutable(Path.of(launcher)) ? List.of(launcher)
        : List.of(ProcessHandle.current().info().command().orElse("java"), "--enable-native-access=ALL-UNNAMED", "-cp",
            System.getProperty("java.class.path"), VyreCommand.class.getName());
    System.out.println("vyre bench tree: vyre runs as " + String.join(" ", vyre.size() == 1 ? vyre : vyre.subList(0, 2))
        + (vyre.size() == 1 ? "" : " ... (not through ./vyre: no ahead-of-time cache)"));
    Map<String, Object> results = TreeBench.run(new TreeBench.Settings(tree, literals, backend, runs, !noService, vyre),
        System.out);
    BenchResults.writeJson(json, results);
    return 0;
  }
}

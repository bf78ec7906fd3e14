package dev.vyre.cli;

import dev.vyre.cli.conform.ConformRegistry;
import dev.vyre.cli.conform.ConformRunner;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vyre conform}: the JSON-lines contract of docs/CONFORMANCE.md on stdin/stdout. */
@Command(name = "conform", mixinStandardHelpOptions = true, description = "Read JSON lines on stdin, answer one JSON line each (docs/CONFORMANCE.md).")
final class ConformCommand implements Callable<Integer> {

  @Option(names = "--list", description = "List the supported fn names and exit.")
  boolean list;

  @Override
  public Integer call() throws Exception {
    ConformRegistry registry = ConformRegistry.loadAll();
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    if (list) {
      registry.names().forEach(out::println);
      out.flush();
      return 0;
    }
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    new ConformRunner(registry).run(in, out);
    return 0;
  }
}

package dev.vyre.cli;

import picocli.CommandLine.Command;

/** {@code vyre bench}: end-to-end measurements of real work (JMH covers the host logic). */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Measure dispatch, scan and task-read throughput on a backend, scans of a real tree against ripgrep, graph traversal on the frontier engine, and the launch policy on a load that changes phase.",
    subcommands = {DispatchBenchCommand.class, ScanBenchCommand.class, ResidentBenchCommand.class, TreeBenchCommand.class,
        IoBenchCommand.class, GraphBenchCommand.class, AdaptBenchCommand.class})
final class BenchCommand implements Runnable {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}

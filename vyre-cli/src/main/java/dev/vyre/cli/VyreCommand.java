package dev.vyre.cli;

import dev.vyre.driver.error.VyreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code vyre} command: the entry point a person runs. */
@Command(
    name = "vyre",
    mixinStandardHelpOptions = true,
    version = "vyre 0.1.0 (JVM)",
    description = "A persistent GPU megakernel runtime for the JVM.",
    subcommands = {
      DoctorCommand.class,
      RunCommand.class,
      ScanCommand.class,
      BenchCommand.class,
      ConformCommand.class,
      PlanCommand.class,
      PolicyCommand.class,
      TelemetryCommand.class,
      ReplayCommand.class,
    })
public final class VyreCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the command line and returns its exit status; vyre errors print their message, not a stack. */
  public static int execute(String... args) {
    CommandLine commandLine = new CommandLine(new VyreCommand());
    commandLine.setExecutionExceptionHandler((error, cmd, parsed) -> {
      if (error instanceof VyreException vyre) {
        cmd.getErr().println("vyre: " + vyre.getMessage());
        return 2;
      }
      throw error;
    });
    return commandLine.execute(args);
  }
}

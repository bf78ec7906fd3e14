package dev.vyre.cli;

import dev.vyre.cli.graph.GraphCommand;
import dev.vyre.cli.serve.ServiceClient;
import dev.vyre.cli.serve.ServiceProtocol;
import dev.vyre.driver.error.VyreException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.OptionalInt;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code vyre} command: the entry point a person runs. */
@Command(
    name = "vyre",
    mixinStandardHelpOptions = true,
    versionProvider = VersionInfo.class,
    description = "A persistent GPU megakernel runtime for the JVM.",
    exitCodeListHeading = "Exit status:%n",
    exitCodeList = {
      "0:Success.",
      "1:The command ran, and its answer is no: vyre scan matched nothing, a task of vyre run did not finish DONE, "
          + "vyre replay --rerun ended differently, vyre doctor found no usable backend.",
      "2:An error: a usage error, bad input, a file that cannot be read or written. The message ends with Fix: ...",
      "130:Interrupted (Ctrl-C, SIGINT); vyre scan keeps the lines it printed, each whole.",
      "141:Standard output was a pipe that closed (vyre scan ... | head -1): vyre stops quietly, as grep does when"
          + " SIGPIPE ends it.",
      "143:Terminated (SIGTERM), as after an interrupt."},
    subcommands = {
      CommandLine.HelpCommand.class,
      DoctorCommand.class,
      RunCommand.class,
      ScanCommand.class,
      ServeCommand.class,
      GraphCommand.class,
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
    // The arguments' exact bytes where the JVM's decoding lost some (vyre scan -e $'\xff').
    // Remembers why a write failed: a closed pipe ends vyre quietly, as it ends grep.
    System.setOut(new ProcessStdout(new FileOutputStream(FileDescriptor.out), System.out.charset()));
    String[] exact = RawArguments.recover(args);
    if (exact.length > 0 && exact[0].equals("scan")) {
      int flags = (Terminal.isTerminal(Terminal.STDOUT) ? ServiceProtocol.STDOUT_TERMINAL : 0)
          | (Terminal.isTerminal(Terminal.STDERR) ? ServiceProtocol.STDERR_TERMINAL : 0)
          | (StandardInput.process().data() ? ServiceProtocol.STDIN_DATA : 0);
      OptionalInt served = ServiceClient.scan(Arrays.asList(exact).subList(1, exact.length), VersionInfo.buildId(), flags);
      if (served.isPresent()) {
        System.exit(served.getAsInt());
      }
    }
    System.exit(execute(exact));
  }

  /**
   * Runs the command line and returns its exit status. Every error a person can cause prints one
   * message ending in {@code Fix: ...}, not a stack (that only with {@code --verbose}), and exits 2.
   */
  public static int execute(String... args) {
    return execute(null, args);
  }

  /** As {@link #execute(String...)}, with {@code vyre scan} reading {@code stdin}; null for the process's. */
  static int execute(StandardInput stdin, String... args) {
    CommandLine commandLine;
    if (args.length > 0 && args[0].equals("scan")) {
      // The scan's command alone, as the service runs it: picocli reads every subcommand's annotations when
      // it builds the whole command, which took longer than scanning a small file.
      ScanCommand scan = new ScanCommand();
      scan.stdin = stdin;
      commandLine = scanCommandLine(scan);
      args = Arrays.copyOfRange(args, 1, args.length);
    } else {
      commandLine = new CommandLine(new VyreCommand());
      ((ScanCommand) commandLine.getSubcommands().get("scan").getCommand()).stdin = stdin;
      commandLine.getSubcommands().get("scan").setAllowOptionsAsOptionParameters(true);
      inheritVersion(commandLine);
    }
    int status = run(commandLine, args);
    // PrintStream swallows write errors; output lost to a full disk or a closed pipe must not exit 0.
    if (System.out.checkError() && status != 2) {
      if (ProcessStdout.closedPipe(System.out)) {
        return ProcessStdout.CLOSED_PIPE_STATUS;
      }
      commandLine.getErr().println("vyre: " + StdoutStream.FAILED);
      commandLine.getErr().flush();
      return 2;
    }
    return status;
  }

  /**
   * Runs the arguments of {@code vyre scan} (without "scan") in {@code environment}, as {@link
   * #execute} would in a process of its own, for {@code vyre serve}: the same messages and exit
   * status, to the environment's streams. A scan the environment declines returns 0 having printed
   * nothing.
   */
  public static int executeScan(ScanEnvironment environment, String... args) {
    ScanCommand scan = new ScanCommand();
    scan.environment = environment;
    // The client's stdin stays with the client: a scan that would read it is declined.
    scan.stdin = new StandardInput(InputStream.nullInputStream(), environment.stdinHoldsData());
    CommandLine commandLine = scanCommandLine(scan);
    commandLine.setOut(new PrintWriter(new OutputStreamWriter(environment.stdout(), StandardCharsets.UTF_8), true));
    commandLine.setErr(new PrintWriter(new OutputStreamWriter(environment.stderr(), StandardCharsets.UTF_8), true));
    return run(commandLine, args);
  }

  /** {@code vyre scan}'s command on its own, named and versioned as under {@code vyre}. */
  private static CommandLine scanCommandLine(ScanCommand scan) {
    CommandLine commandLine = new CommandLine(scan);
    // As in grep, the argument of -e is the pattern even when it looks like an option (-e -foo).
    commandLine.setAllowOptionsAsOptionParameters(true);
    commandLine.getCommandSpec().name("vyre scan");
    commandLine.getCommandSpec().versionProvider(new VersionInfo());
    return commandLine;
  }

  private static int run(CommandLine commandLine, String[] args) {
    commandLine.setParameterExceptionHandler(VyreCommand::usageError);
    commandLine.setExecutionExceptionHandler(VyreCommand::failure);
    // The libraries' INFO log lines are part of what --verbose tells, for that command only.
    commandLine.setExecutionStrategy(parsed -> {
      CliLoggerFinder.verbose(verbose(parsed));
      try {
        return new CommandLine.RunLast().execute(parsed);
      } finally {
        CliLoggerFinder.verbose(false);
      }
    });
    try {
      return commandLine.execute(args);
    } catch (Error error) {
      // picocli hands only Exceptions to failure(); an Error left to the JVM would exit 1, which
      // scripts read as "no match".
      return fatal(error, commandLine.getErr());
    }
  }

  /** A bad command line: the problem, where to read the usage, and picocli's "Did you mean". */
  private static int usageError(CommandLine.ParameterException error, String[] args) {
    CommandLine cmd = error.getCommandLine();
    String name = cmd.getCommandSpec().qualifiedName();
    PrintWriter err = cmd.getErr();
    // A grep option vyre scan lacks: why, and what to use instead, not the option nearest in spelling.
    if (cmd.getCommand() instanceof ScanCommand && error instanceof CommandLine.UnmatchedArgumentException unmatched) {
      for (String argument : unmatched.getUnmatched()) {
        java.util.Optional<String> unsupported = UnsupportedGrepOptions.message(argument);
        if (unsupported.isPresent()) {
          err.println(name + ": " + unsupported.get());
          return cmd.getCommandSpec().exitCodeOnInvalidInput();
        }
      }
    }
    err.println(name + ": " + error.getMessage() + ". Fix: run `" + name + " --help` for the usage");
    CommandLine.UnmatchedArgumentException.printSuggestions(error, err);
    return cmd.getCommandSpec().exitCodeOnInvalidInput();
  }

  /** A command that threw: vyre's errors carry their Fix; I/O errors and bugs get one. */
  private static int failure(Exception error, CommandLine cmd, CommandLine.ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    if (error instanceof VyreException vyre) {
      err.println("vyre: " + vyre.getMessage());
      return 2;
    }
    String name = cmd.getCommandSpec().qualifiedName();
    Throwable io = error instanceof UncheckedIOException unchecked ? unchecked.getCause() : error;
    if (io instanceof StdoutStream.WriteFailed) {
      err.println(name + ": " + StdoutStream.FAILED);
    } else if (io instanceof IOException) {
      String problem = io instanceof NoSuchFileException ? io.getMessage() + ": no such file or directory" : io.getMessage();
      err.println(name + ": " + problem + ". Fix: check that the files named exist, are of the right kind and can be"
          + " read or written, and that the disk is not full");
    } else {
      err.println(name + ": unexpected error: " + error + ". Fix: this is a bug in vyre; please report it with the"
          + " command line" + (verbose(parsed) ? " and the stack below" : " (--verbose, where the command has it,"
          + " prints the stack)"));
    }
    if (verbose(parsed)) {
      error.printStackTrace(err);
    }
    err.flush();
    return 2;
  }

  /** An Error out of a command: one line with a Fix, exit 2. */
  static int fatal(Error error, PrintWriter err) {
    if (error instanceof OutOfMemoryError) {
      err.println("vyre: out of memory (" + error.getMessage() + "). Fix: give the JVM a larger heap, e.g."
          + " JAVA_TOOL_OPTIONS=-Xmx8g, or a smaller job");
    } else {
      err.println("vyre: unexpected error: " + error + ". Fix: this is a bug in vyre; please report it with the"
          + " command line");
    }
    err.flush();
    return 2;
  }

  /** Subcommands answer --version with vyre's version (they printed an empty line). */
  private static void inheritVersion(CommandLine parent) {
    for (CommandLine sub : parent.getSubcommands().values()) {
      sub.getCommandSpec().versionProvider(parent.getCommandSpec().versionProvider());
      inheritVersion(sub);
    }
  }

  private static boolean verbose(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult last = parsed;
    while (last.hasSubcommand()) {
      last = last.subcommand();
    }
    return last.hasMatchedOption("--verbose");
  }
}

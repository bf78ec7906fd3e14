package dev.vyre.cli;

import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.KernelResourcePool;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ResidentCorpus;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where a {@code vyre scan} command line runs: in its own process (standard streams, the process's
 * working directory, a megakernel of its own), or inside {@code vyre serve} for a client (the
 * client's streams relayed over its socket, the client's working directory, the service's shared
 * kernel).
 *
 * @param stdout where results go; a failed write throws
 * @param stderr where messages and the progress line go
 * @param stdoutIsTerminal print each file as soon as it is done (a person is watching)
 * @param stderrIsTerminal show the progress line
 * @param workingDirectory what relative paths are relative to; the empty path for this process's own
 * @param sharedKernel the service's kernel and resources; null to bootstrap one for this scan
 * @param decline called, instead of scanning, with the reason a served scan must run in the
 *     client's own process (options the shared kernel cannot honour); null in a process of its own
 * @param cancellation takes the action that stops the running scan early (from any thread), for a
 *     service whose client went away; null in a process of its own
 * @param stdinHoldsData the client's stdin is a pipe or a file, which a scan without PATH would
 *     read (a service declines such a scan); unused in a process of its own, which looks itself
 * @param compiler turns the patterns into their DFA table: a service keeps recent tables
 * @param resident the directory a service holds in device memory ({@code vyre serve --resident}),
 *     which a scan of files under it reads instead of the disk; null for none
 */
public record ScanEnvironment(OutputStream stdout, PrintStream stderr, boolean stdoutIsTerminal,
    boolean stderrIsTerminal, Path workingDirectory, KernelResourcePool sharedKernel, Consumer<String> decline,
    Consumer<Runnable> cancellation, boolean stdinHoldsData, Function<PatternSet, DfaTable> compiler,
    ResidentCorpus resident) {

  /** This process: its standard streams and working directory, a kernel of its own. */
  static ScanEnvironment process() {
    return new ScanEnvironment(new StdoutStream(System.out), System.err, Terminal.isTerminal(Terminal.STDOUT),
        Terminal.isTerminal(Terminal.STDERR), Path.of(""), null, null, null, false, AhoCorasickCompiler::compile, null);
  }

  boolean served() {
    return sharedKernel != null;
  }

  /** The path a name given on the command line opens. */
  Path locate(Path given) {
    return workingDirectory.resolve(given);
  }
}

package dev.vyre.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Exit status, stdout and stderr of one in-process {@code vyre} run, for the command tests. */
record CliRun(int status, String out, String err) {

  /** A run whose stdin is a terminal: vyre scan with no PATH scans the current directory. */
  /** {@code vyre scan --backend=reference} with {@code args}. */
  static CliRun scanOnReference(String... args) {
    String[] withBackend = new String[args.length + 2];
    withBackend[0] = "scan";
    withBackend[1] = "--backend=reference";
    System.arraycopy(args, 0, withBackend, 2, args.length);
    return of(withBackend);
  }

  /**
   * A stdout that fails every write with {@code message}, as a full disk ("No space left on
   * device") or a closed pipe ("Broken pipe") does; counts the writes tried.
   */
  static final class FailingOutput extends OutputStream {
    private final String message;
    int writes;

    FailingOutput(String message) {
      this.message = message;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      writes++;
      throw new IOException(message);
    }
  }

  static CliRun of(String... args) {
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    CliRun run = run(new StandardInput(new ByteArrayInputStream(new byte[0]), false), stdout, args);
    return new CliRun(run.status, stdout.toString(StandardCharsets.UTF_8), run.err);
  }

  static CliRun withStdin(String stdin, String... args) {
    return withStdin(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), args);
  }

  /** A run whose stdin is a pipe that holds {@code stdin}. */
  static CliRun withStdin(InputStream stdin, String... args) {
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    CliRun run = run(new StandardInput(stdin, true), stdout, args);
    return new CliRun(run.status, stdout.toString(StandardCharsets.UTF_8), run.err);
  }

  /** A run whose stdin is a pipe that holds {@code stdin} and whose stdout is {@code stdout}; {@link #out()} is empty. */
  static CliRun withStdinAndStdout(InputStream stdin, OutputStream stdout, String... args) {
    return run(new StandardInput(stdin, true), stdout, args);
  }

  /** A run whose stdout is {@code stdout} (e.g. one that fails like a full disk); {@link #out()} is empty. */
  static CliRun withStdout(OutputStream stdout, String... args) {
    return withStdout(new PrintStream(stdout, true, StandardCharsets.UTF_8), args);
  }

  /** A run with this System.out (a {@link ProcessStdout}, say); {@link #out()} is empty. */
  static CliRun withStdout(PrintStream stdout, String... args) {
    return run(new StandardInput(new ByteArrayInputStream(new byte[0]), false), stdout, args);
  }

  private static CliRun run(StandardInput stdin, OutputStream stdout, String... args) {
    return run(stdin, new PrintStream(stdout, true, StandardCharsets.UTF_8), args);
  }

  private static CliRun run(StandardInput stdin, PrintStream stdout, String... args) {
    InputStream in = System.in;
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    try {
      System.setIn(stdin.stream());
      System.setOut(stdout);
      System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
      int status = VyreCommand.execute(stdin, args);
      return new CliRun(status, "", stderr.toString(StandardCharsets.UTF_8));
    } finally {
      System.setIn(in);
      System.setOut(out);
      System.setErr(err);
    }
  }
}

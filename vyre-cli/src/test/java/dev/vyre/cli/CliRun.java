package dev.vyre.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Exit status, stdout and stderr of one in-process {@code vyre} run, for the command tests. */
record CliRun(int status, String out, String err) {

  static CliRun of(String... args) {
    return withStdin("", args);
  }

  static CliRun withStdin(String stdin, String... args) {
    return withStdin(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), args);
  }

  static CliRun withStdin(InputStream stdin, String... args) {
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    CliRun run = run(stdin, stdout, args);
    return new CliRun(run.status, stdout.toString(StandardCharsets.UTF_8), run.err);
  }

  /** A run whose stdout is {@code stdout} (e.g. one that fails like a full disk); {@link #out()} is empty. */
  static CliRun withStdout(OutputStream stdout, String... args) {
    return run(new ByteArrayInputStream(new byte[0]), stdout, args);
  }

  private static CliRun run(InputStream stdin, OutputStream stdout, String... args) {
    InputStream in = System.in;
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    try {
      System.setIn(stdin);
      System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
      int status = VyreCommand.execute(args);
      return new CliRun(status, "", stderr.toString(StandardCharsets.UTF_8));
    } finally {
      System.setIn(in);
      System.setOut(out);
      System.setErr(err);
    }
  }
}

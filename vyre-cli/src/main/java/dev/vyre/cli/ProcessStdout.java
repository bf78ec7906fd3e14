package dev.vyre.cli;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;

/**
 * {@code System.out} as {@code vyre} sets it in {@code main}: a {@link PrintStream} that remembers
 * why a write failed. PrintStream swallows the exception, and a closed pipe ({@code vyre scan ... |
 * head -1}) must end a command quietly, as it ends grep, while a full disk stays an error.
 */
final class ProcessStdout extends PrintStream {

  /**
   * The exit status after the reader of stdout went away: what a shell reports for grep, which
   * SIGPIPE kills (128 + 13). The JVM ignores SIGPIPE, so vyre sees the failed write instead.
   */
  static final int CLOSED_PIPE_STATUS = 128 + 13;

  /** What the JDK's IOException says on EPIPE (strerror on Linux and macOS). */
  private static final String BROKEN_PIPE = "Broken pipe";

  private final FailureRecorder recorder;

  ProcessStdout(OutputStream out, Charset charset) {
    this(new FailureRecorder(out), charset);
  }

  private ProcessStdout(FailureRecorder recorder, Charset charset) {
    super(new BufferedOutputStream(recorder, 8192), true, charset);
    this.recorder = recorder;
  }

  /** Whether a write failed because the pipe stdout is had no reader any more. */
  boolean closedPipe() {
    IOException failure = recorder.failure;
    return failure != null && BROKEN_PIPE.equals(failure.getMessage());
  }

  /** Whether {@code out} is a ProcessStdout whose pipe closed. */
  static boolean closedPipe(PrintStream out) {
    return out instanceof ProcessStdout stdout && stdout.closedPipe();
  }

  /** Passes writes on and keeps the first exception. */
  private static final class FailureRecorder extends FilterOutputStream {
    private volatile IOException failure;

    FailureRecorder(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      try {
        out.write(b);
      } catch (IOException e) {
        throw recorded(e);
      }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      try {
        out.write(bytes, offset, length);
      } catch (IOException e) {
        throw recorded(e);
      }
    }

    @Override
    public void flush() throws IOException {
      try {
        out.flush();
      } catch (IOException e) {
        throw recorded(e);
      }
    }

    private IOException recorded(IOException e) {
      if (failure == null) {
        failure = e;
      }
      return e;
    }
  }
}

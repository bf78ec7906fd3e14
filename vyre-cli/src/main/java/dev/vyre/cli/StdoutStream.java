package dev.vyre.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * {@code System.out} as an {@link OutputStream} that throws when a write fails. A
 * {@link PrintStream} swallows write errors, so without this a scan into a full disk or a closed
 * pipe would go on to the end and exit 0.
 */
final class StdoutStream extends OutputStream {

  /** What {@code vyre} prints when its standard output failed. */
  static final String FAILED = "standard output: write failed (a full disk or a closed pipe). Fix: write the output"
      + " where it fits, e.g. > FILE on a disk with room";

  /** The failure: the message is {@link #FAILED}. */
  static final class WriteFailed extends IOException {
    WriteFailed() {
      super(FAILED);
    }
  }

  private final PrintStream out;
  private boolean failed;

  StdoutStream(PrintStream out) {
    this.out = out;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    if (!failed) {
      out.write(bytes, offset, length);
    }
    check();
  }

  @Override
  public void flush() throws IOException {
    if (!failed) {
      out.flush();
    }
    check();
  }

  /**
   * Whether the writes failed because stdout was a pipe whose reader went away ({@code | head -1}),
   * which ends a command quietly, not with {@link #FAILED}.
   */
  boolean closedPipe() {
    return failed && ProcessStdout.closedPipe(out);
  }

  // checkError() also flushes: the caller buffers, so this runs once per buffer, not per line.
  private void check() throws WriteFailed {
    if (failed || out.checkError()) {
      failed = true;
      throw new WriteFailed();
    }
  }
}

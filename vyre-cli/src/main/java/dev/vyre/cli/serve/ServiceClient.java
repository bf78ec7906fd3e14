package dev.vyre.cli.serve;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * The client side of {@code vyre serve}: {@code vyre scan} hands its command line to a running
 * service and relays what comes back to its own stdout and stderr, byte for byte, and exits with
 * the service's status. Without a service (no socket, nothing listening), with {@code --no-server}
 * or {@code VYRE_SERVICE=off}, or when the service declines (options its shared kernel cannot
 * honour, another vyre version), the scan runs in this process as before.
 */
public final class ServiceClient {

  /** The exit status of a scan whose stdout was closed (a pipe to head): a shell's for grep ended by SIGPIPE. */
  public static final int CLOSED_OUTPUT_STATUS = 141;

  private ServiceClient() {}

  /** What a scan through the service ended with: its exit status, or nothing (run it here). */
  public static OptionalInt scan(List<String> scanArguments, String build, int flags) {
    if ("off".equals(System.getenv("VYRE_SERVICE")) || scanArguments.contains("--no-server")) {
      return OptionalInt.empty();
    }
    Path socket = ServiceSocket.defaultPath();
    if (!Files.exists(socket)) {
      return OptionalInt.empty();
    }
    return scan(socket, scanArguments, build, flags, Path.of("").toAbsolutePath(), new FileOutputStream(FileDescriptor.out),
        new FileOutputStream(FileDescriptor.err));
  }

  /**
   * Runs {@code vyre scan ARGUMENTS} through the service at {@code socket} as if from {@code
   * workingDirectory}, relaying its output to {@code stdout} and {@code stderr}.
   */
  public static OptionalInt scan(Path socket, List<String> scanArguments, String build, int flags, Path workingDirectory,
      OutputStream stdout, OutputStream stderr) {
    boolean verbose = scanArguments.contains("--verbose");
    PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    SocketChannel channel;
    try {
      channel = ServiceSocket.connect(socket);
    } catch (IOException | RuntimeException nothingListening) {
      if (verbose) {
        err.println("vyre scan: no service answers at " + socket + " (" + nothingListening.getMessage()
            + "); scanning in this process");
      }
      return OptionalInt.empty();
    }
    try (channel) {
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)));
      ServiceProtocol.writeHeader(out, build, ServiceProtocol.SCAN);
      byte[] directory = workingDirectory.toString().getBytes(StandardCharsets.UTF_8);
      ServiceProtocol.writeScan(out, new ServiceProtocol.ScanRequest(ProcessHandle.current().pid(), flags, directory,
          scanArguments));
      out.flush();
      if (verbose) {
        err.println("vyre scan: through the service at " + socket);
      }
      return relay(new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel), 1 << 16)), stdout, err,
          verbose);
    } catch (IOException e) {
      err.println("vyre scan: the service at " + socket + " failed (" + e.getMessage() + "). Fix: run the scan"
          + " with --no-server, and restart vyre serve");
      return OptionalInt.of(2);
    }
  }

  /** Relays frames until EXIT (its status), DECLINED (empty) or ERROR (status 2). */
  private static OptionalInt relay(DataInputStream in, OutputStream stdout, PrintStream stderr, boolean verbose)
      throws IOException {
    byte[] payload = new byte[ServiceProtocol.MAX_FRAME_BYTES];
    boolean relayed = false;
    while (true) {
      int type;
      int length;
      try {
        type = in.readUnsignedByte();
        length = in.readInt();
      } catch (EOFException serviceDied) {
        if (!relayed) {
          stderr.println("vyre scan: the service closed the connection without an answer; scanning in this process");
          return OptionalInt.empty();
        }
        stderr.println("vyre scan: the service closed the connection before the scan ended. Fix: run the scan"
            + " again (with --no-server to scan in this process), and see vyre serve's own output");
        return OptionalInt.of(2);
      }
      if (length < 0 || length > ServiceProtocol.MAX_FRAME_BYTES) {
        throw new IOException("a frame of " + Integer.toUnsignedString(length) + " bytes");
      }
      in.readFully(payload, 0, length);
      switch (type) {
        case ServiceProtocol.STDOUT -> {
          relayed = true;
          try {
            stdout.write(payload, 0, length);
          } catch (IOException closedOutput) {
            // Closing the socket stops the service's scan; nothing more is worth printing.
            return OptionalInt.of(CLOSED_OUTPUT_STATUS);
          }
        }
        case ServiceProtocol.STDERR -> {
          relayed = true;
          stderr.write(payload, 0, length);
        }
        case ServiceProtocol.EXIT -> {
          return OptionalInt.of(ByteBuffer.wrap(payload, 0, Integer.BYTES).getInt());
        }
        case ServiceProtocol.DECLINED -> {
          if (verbose) {
            stderr.println("vyre scan: the service declined (" + new String(payload, 0, length,
                StandardCharsets.UTF_8) + "); scanning in this process");
          }
          return OptionalInt.empty();
        }
        case ServiceProtocol.ERROR -> {
          stderr.write(payload, 0, length);
          stderr.println();
          return OptionalInt.of(2);
        }
        default -> throw new IOException("a frame of unknown type " + type);
      }
    }
  }

  /** Sends a STATUS or STOP request and prints the answer; the exit status. */
  public static int control(Path socket, String build, int kind, OutputStream stdout, OutputStream stderr)
      throws IOException {
    try (SocketChannel channel = ServiceSocket.connect(socket)) {
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)));
      ServiceProtocol.writeHeader(out, build, kind);
      out.flush();
      return relay(new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel))), stdout,
          new PrintStream(stderr, true, StandardCharsets.UTF_8), false).orElse(2);
    }
  }
}

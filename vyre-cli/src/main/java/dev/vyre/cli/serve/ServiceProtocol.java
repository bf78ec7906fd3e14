package dev.vyre.cli.serve;

import dev.vyre.driver.error.InputException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire layout between {@code vyre scan} and {@code vyre serve} over their Unix domain socket,
 * all integers big-endian. The client sends one request and reads frames until an EXIT or
 * DECLINED frame; it sends nothing more, and closing its end cancels the request.
 *
 * <pre>
 * request := u32 MAGIC, u16 VERSION, string build, u8 kind, [scan body when kind = SCAN]
 * scan body := i64 client pid, u8 flags (STDOUT_TERMINAL | STDERR_TERMINAL | STDIN_DATA),
 *              bytes working directory, u32 argc, argc x string argument
 * string := u32 UTF-16 code units, then the units (an argument may hold lone surrogates: bytes that
 *           were not UTF-8 on the client's command line)
 * bytes := u32 length, then the bytes
 * frame := u8 type, u32 length, payload: STDOUT and STDERR bytes to relay, EXIT i32 status,
 *          DECLINED UTF-8 reason (the client runs the scan itself), ERROR UTF-8 message (exit 2)
 * </pre>
 */
public final class ServiceProtocol {

  public static final int MAGIC = 0x56_59_52_45;  // "VYRE"
  public static final int VERSION = 1;

  /** Request kinds. */
  public static final int SCAN = 1;
  public static final int STATUS = 2;
  public static final int STOP = 3;

  /** Scan flags: what the client's standard streams are (stdin: holds data, as a pipe or a file does). */
  public static final int STDOUT_TERMINAL = 1;
  public static final int STDERR_TERMINAL = 2;
  public static final int STDIN_DATA = 4;

  /** Frame types. */
  public static final int STDOUT = 1;
  public static final int STDERR = 2;
  public static final int EXIT = 3;
  public static final int DECLINED = 4;
  public static final int ERROR = 5;

  /** The most payload one frame carries; longer output is sent as several frames. */
  public static final int MAX_FRAME_BYTES = 1 << 16;
  /** Limits a request is checked against, so garbage cannot make the service allocate without bound. */
  public static final int MAX_ARGUMENTS = 1 << 16;
  public static final int MAX_STRING_UNITS = 1 << 24;
  public static final int FRAME_HEADER_BYTES = 5;

  private ServiceProtocol() {}

  /** A scan request as the service reads it. */
  public record ScanRequest(long clientPid, int flags, byte[] workingDirectory, List<String> arguments) {
    public boolean has(int flag) {
      return (flags & flag) != 0;
    }
  }

  /** The header every request starts with. */
  public static void writeHeader(DataOutputStream out, String build, int kind) throws IOException {
    out.writeInt(MAGIC);
    out.writeShort(VERSION);
    writeString(out, build);
    out.writeByte(kind);
  }

  public static void writeScan(DataOutputStream out, ScanRequest request) throws IOException {
    out.writeLong(request.clientPid());
    out.writeByte(request.flags());
    out.writeInt(request.workingDirectory().length);
    out.write(request.workingDirectory());
    out.writeInt(request.arguments().size());
    for (String argument : request.arguments()) {
      writeString(out, argument);
    }
  }

  /** A request's header: its kind and the client's build. */
  public record Header(int kind, String build) {}

  /**
   * Reads a request's header after checking the magic and the protocol version.
   *
   * @throws InputException for anything that is not a request of this protocol
   */
  public static Header readHeader(DataInputStream in) throws IOException {
    int magic = in.readInt();
    if (magic != MAGIC) {
      throw InputException.of("request", "it does not start with vyre's service magic (0x"
          + Integer.toHexString(magic) + ")", "connect with vyre scan, not another program");
    }
    int version = in.readUnsignedShort();
    if (version != VERSION) {
      throw InputException.of("request", "protocol version " + version + ", the service speaks " + VERSION,
          "run the same vyre for vyre scan and vyre serve");
    }
    String build = readString(in);
    int kind = in.readUnsignedByte();
    if (kind < SCAN || kind > STOP) {
      throw InputException.of("request", "unknown request kind " + kind, "connect with vyre scan or vyre serve");
    }
    return new Header(kind, build);
  }

  public static ScanRequest readScan(DataInputStream in) throws IOException {
    long pid = in.readLong();
    int flags = in.readUnsignedByte();
    byte[] directory = in.readNBytes(checkedLength(in.readInt(), MAX_STRING_UNITS, "working directory"));
    if (directory.length == 0 || directory[0] != '/') {
      throw InputException.of("request", "the working directory is not an absolute path", "connect with vyre scan");
    }
    int argc = checkedLength(in.readInt(), MAX_ARGUMENTS, "argument count");
    List<String> arguments = new ArrayList<>(argc);
    for (int i = 0; i < argc; i++) {
      arguments.add(readString(in));
    }
    return new ScanRequest(pid, flags, directory, List.copyOf(arguments));
  }

  static void writeString(DataOutputStream out, String value) throws IOException {
    out.writeInt(value.length());
    out.writeChars(value);
  }

  static String readString(DataInputStream in) throws IOException {
    int units = checkedLength(in.readInt(), MAX_STRING_UNITS, "string");
    char[] chars = new char[units];
    for (int i = 0; i < units; i++) {
      chars[i] = in.readChar();
    }
    return new String(chars);
  }

  private static int checkedLength(int length, int max, String what) {
    if (length < 0 || length > max) {
      throw InputException.of("request", what + " of " + Integer.toUnsignedString(length) + " is over the limit of "
          + max, "connect with vyre scan");
    }
    return length;
  }

  /** Writes one frame's header. */
  public static void writeFrameHeader(byte[] header, int type, int length) {
    header[0] = (byte) type;
    header[1] = (byte) (length >>> 24);
    header[2] = (byte) (length >>> 16);
    header[3] = (byte) (length >>> 8);
    header[4] = (byte) length;
  }

  public static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}

package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import dev.vyre.io.PathBytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The command line's exact bytes. The JVM decodes argv with {@code sun.jnu.encoding} and puts
 * U+FFFD for bytes that are not valid in it, so {@code vyre scan -e $'\xff'} searched for EF BF BD,
 * and a file name that is not UTF-8 named no file. On Linux {@code /proc/self/cmdline} still holds
 * the bytes: its last {@code args.length} entries are main's arguments. An argument whose bytes are
 * not UTF-8 is handed on as those bytes decoded as UTF-8 with each invalid byte {@code b} as the
 * lone surrogate {@code U+DC00 + b} (never the result of a real decoding, as in Python's
 * surrogateescape); {@link #bytes} and {@link #path} turn such a string back into its bytes.
 */
final class RawArguments {

  private static final Path CMDLINE = Path.of("/proc/self/cmdline");
  private static final char ESCAPE_BASE = '\uDC00';

  private RawArguments() {}

  /**
   * main's {@code args}, each argument that is not valid UTF-8 in its escaped form; {@code args}
   * itself (today's decoded strings) where /proc is unavailable or its entries do not match them.
   */
  static String[] recover(String[] args) {
    if (args.length == 0) {
      return args;
    }
    byte[] cmdline;
    Charset charset;
    try {
      cmdline = Files.readAllBytes(CMDLINE);
      charset = Charset.forName(System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name()));
    } catch (IOException | RuntimeException unavailable) {
      return args;
    }
    return recover(entries(cmdline), args, charset);
  }

  /** The NUL-terminated entries of a {@code /proc/PID/cmdline}. */
  static List<byte[]> entries(byte[] cmdline) {
    List<byte[]> entries = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < cmdline.length; i++) {
      if (cmdline[i] == 0) {
        entries.add(Arrays.copyOfRange(cmdline, start, i));
        start = i + 1;
      }
    }
    if (start < cmdline.length) {
      entries.add(Arrays.copyOfRange(cmdline, start, cmdline.length));
    }
    return entries;
  }

  /**
   * {@code args} with the exact bytes of the last {@code args.length} {@code entries} where they are
   * not UTF-8, provided each entry decodes with {@code charset} (as the JVM decoded argv) to its
   * argument; otherwise {@code args} unchanged, since the entries are not main's arguments then (a
   * launcher that rewrote them, a truncated cmdline).
   */
  static String[] recover(List<byte[]> entries, String[] args, Charset charset) {
    if (entries.size() < args.length) {
      return args;
    }
    List<byte[]> tail = entries.subList(entries.size() - args.length, entries.size());
    for (int i = 0; i < args.length; i++) {
      if (!new String(tail.get(i), charset).equals(args[i])) {
        return args;
      }
    }
    String[] exact = args.clone();
    for (int i = 0; i < args.length; i++) {
      String escaped = escaped(tail.get(i));
      if (!escaped.equals(args[i])) {
        exact[i] = escaped;
      }
    }
    return exact;
  }

  /** {@code raw} as UTF-8, each byte that is not valid there as the lone surrogate U+DC00 + byte. */
  static String escaped(byte[] raw) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(raw);
    // UTF-8 gives at most one char per byte (a 4-byte sequence gives 2), and so does an escape.
    CharBuffer out = CharBuffer.allocate(raw.length);
    while (true) {
      CoderResult result = decoder.decode(in, out, true);
      if (result.isUnderflow()) {
        break;
      }
      if (!result.isError()) {
        throw new IllegalStateException("UTF-8 decoding of " + raw.length + " bytes overflowed: " + result);
      }
      for (int k = 0; k < result.length(); k++) {
        out.put((char) (ESCAPE_BASE + (in.get() & 0xFF)));
      }
    }
    decoder.flush(out);
    return out.flip().toString();
  }

  /** The bytes {@code argument} stands for: UTF-8, with each escaped byte as itself. */
  static byte[] bytes(String argument) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(argument.length());
    int run = 0;
    for (int i = 0; i < argument.length(); i++) {
      if (isEscape(argument, i)) {
        bytes.writeBytes(argument.substring(run, i).getBytes(StandardCharsets.UTF_8));
        bytes.write(argument.charAt(i) - ESCAPE_BASE);
        run = i + 1;
      }
    }
    bytes.writeBytes(argument.substring(run).getBytes(StandardCharsets.UTF_8));
    return bytes.toByteArray();
  }

  /** A lone low surrogate U+DC00..U+DCFF: the second half of a pair is a character's, not an escape. */
  private static boolean isEscape(String s, int i) {
    char c = s.charAt(i);
    return c >= ESCAPE_BASE && c <= '\uDCFF' && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
  }

  /** The text to show for {@code argument} in messages: its bytes as UTF-8, U+FFFD for invalid ones. */
  static String display(String argument) {
    return new String(bytes(argument), StandardCharsets.UTF_8);
  }

  /**
   * The {@link Path} that names the file {@code argument}'s bytes name. {@link Path#of(String)}
   * encodes with the platform charset and cannot take bytes that are not valid in it, but a Unix
   * Path keeps bytes (the walk's own names are such Paths), and {@link Path#of(URI)} builds one from
   * percent-escaped bytes; each name is made that way and the names joined.
   *
   * @throws InputException when no Path names those bytes
   */
  static Path path(String argument) {
    byte[] raw = bytes(argument);
    byte[] expected = normalized(raw);
    try {
      Path plain = Path.of(argument);
      if (Arrays.equals(PathBytes.of(plain), expected)) {
        return plain;
      }
    } catch (InvalidPathException notInCharset) {
      // Built from its bytes below.
    }
    Path path = null;
    try {
      path = raw.length > 0 && raw[0] == '/' ? Path.of("/") : Path.of("");
      int start = 0;
      for (int i = 0; i <= raw.length; i++) {
        if (i == raw.length || raw[i] == '/') {
          if (i > start) {
            path = path.resolve(name(Arrays.copyOfRange(raw, start, i)));
          }
          start = i + 1;
        }
      }
    } catch (IllegalArgumentException e) {  // InvalidPathException included
      path = null;
    }
    if (path == null || !Arrays.equals(PathBytes.of(path), expected)) {
      throw InputException.of(display(argument), "this name's bytes cannot be made into a Java path",
          "scan the directory that holds the file instead (the walk reads names as bytes), or rename it");
    }
    return path;
  }

  /** One name (no slash) as a relative Path of exactly those bytes. */
  private static Path name(byte[] name) {
    StringBuilder uri = new StringBuilder("file:///");
    for (byte b : name) {
      int c = b & 0xFF;
      if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '-' || c == '.' || c == '_' || c == '~')) {
        uri.append((char) c);
      } else {
        uri.append('%').append(HexFormat.of().withUpperCase().toHexDigits((byte) c));
      }
    }
    return Path.of(URI.create(uri.toString())).getFileName();
  }

  /** {@code raw} as a Unix Path keeps it: no repeated slashes, no slash at the end (but "/"). */
  private static byte[] normalized(byte[] raw) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length);
    for (int i = 0; i < raw.length; i++) {
      if (raw[i] == '/' && (i + 1 == raw.length || raw[i + 1] == '/') && !(out.size() == 0 && i + 1 == raw.length)) {
        continue;
      }
      out.write(raw[i]);
    }
    return out.toByteArray();
  }
}

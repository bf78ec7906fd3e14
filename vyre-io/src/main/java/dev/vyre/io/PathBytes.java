package dev.vyre.io;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * The bytes of a file name as the kernel has them: for a native open() that must name the file the
 * Path was listed under, and for output that names it exactly as grep does. {@link Path#toString()}
 * decodes a name with the platform's charset and puts U+FFFD where its bytes are not valid in it, so
 * a name that is not UTF-8 would come out as some other name; the {@link Path} itself keeps the
 * bytes, and {@link Path#toUri()} is the public view of them (on Unix it percent-encodes every byte
 * that is not a plain URI character, one by one).
 */
public final class PathBytes {

  private PathBytes() {}

  /** {@code path}'s bytes: its text when that is ASCII (the common case), else read back from its URI. */
  public static byte[] of(Path path) {
    String text = path.toString();
    if (ascii(text)) {
      return text.getBytes(StandardCharsets.US_ASCII);
    }
    // toUri makes a relative path absolute against the working directory; against "/" instead, the
    // added slash is the only byte to drop again.
    Path absolute = path.isAbsolute() ? path : path.getFileSystem().getPath("/").resolve(path);
    String raw = absolute.toUri().getRawPath();
    // toUri also appends a slash when the path names a directory; a Unix Path never ends in one.
    int end = raw.length() > 1 && raw.endsWith("/") ? raw.length() - 1 : raw.length();
    int start = path.isAbsolute() ? 0 : 1;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(end - start);
    for (int i = start; i < end; i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        bytes.write(HexFormat.fromHexDigits(raw, i + 1, i + 3));
        i += 2;
      } else {
        bytes.write(c);
      }
    }
    return bytes.toByteArray();
  }

  /** A plain loop: called once a file opened, where a stream's allocations showed in profiles. */
  private static boolean ascii(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }
}

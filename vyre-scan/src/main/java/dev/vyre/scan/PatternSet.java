package dev.vyre.scan;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A validated, ordered set of literal byte patterns for {@code vyre scan}. A pattern's id is its
 * 0-based position in the input ({@code -e} values in order, each one's lines in order, then file
 * line order); duplicates keep their own ids and are each reported. With {@link #caseInsensitive()}
 * ASCII letters match either case.
 */
public final class PatternSet {

  /** The most patterns one set may hold. */
  public static final int MAX_PATTERNS = 1 << 20;
  /** The longest pattern in bytes; chunks overlap by up to this many bytes minus one. */
  public static final int MAX_PATTERN_LENGTH = 1 << 16;
  /** The most pattern bytes in one set; it bounds the automaton to this many states plus one. */
  public static final long MAX_TOTAL_BYTES = 1L << 24;
  /** The largest pattern file: the most pattern bytes, each line ended by CRLF. */
  public static final long MAX_FILE_BYTES = MAX_TOTAL_BYTES + 2L * MAX_PATTERNS;

  private static final String SPLIT_FIX = "split the patterns into several files and scan once per file";
  /**
   * Why an empty pattern is refused rather than matched as grep matches it: grep prints the lines
   * it matches, every line for an empty pattern, but vyre scan prints each occurrence's byte
   * offset, and an empty pattern occurs at every byte.
   */
  private static final String EMPTY_WHY = "; an empty pattern would match at every byte offset (grep -F prints every"
      + " line for it, but vyre scan prints matches, not lines)";

  private final List<byte[]> patterns;
  private final List<byte[]> matchPatterns;
  private final boolean caseInsensitive;
  private final int maxLength;
  private final long totalBytes;

  private PatternSet(List<byte[]> patterns, List<byte[]> matchPatterns, boolean caseInsensitive, int maxLength,
      long totalBytes) {
    this.patterns = patterns;
    this.matchPatterns = matchPatterns;
    this.caseInsensitive = caseInsensitive;
    this.maxLength = maxLength;
    this.totalBytes = totalBytes;
  }

  /** Reads one pattern per line of {@code file}: {@link #fileLines}, then {@link #of}. */
  public static PatternSet fromFile(Path file, boolean caseInsensitive) {
    return of(fileLines(file), caseInsensitive, file.toString());
  }

  /**
   * The patterns in {@code file}, one per line, in order; none for an empty file (as with
   * {@code grep -F -f}). Lines end with LF or CRLF; a final line may lack its newline. A blank line
   * is an error naming its line, where grep would take it as an empty pattern that matches every line.
   */
  public static List<byte[]> fileLines(Path file) {
    return fileLines(file, file);
  }

  /** {@link #fileLines(Path)} of the file at {@code location}, named {@code file} in errors. */
  public static List<byte[]> fileLines(Path file, Path location) {
    String source = file.toString();
    byte[] bytes;
    try {
      if (Files.size(location) > MAX_FILE_BYTES) {
        throw InputException.of(source, "the pattern file is " + Files.size(location) + " bytes, above the "
            + MAX_TOTAL_BYTES + "-byte pattern limit", SPLIT_FIX);
      }
      bytes = Files.readAllBytes(location);
    } catch (IOException e) {
      throw InputException.of(source, "cannot read the pattern file (" + e + ")",
          "check that the file exists and is readable");
    }
    return lines(source, bytes);
  }

  /**
   * The patterns in {@code bytes}, one per line, as {@link #fileLines} reads a file's (grep -f -
   * reads them from stdin); {@code source} names them in errors.
   */
  public static List<byte[]> lines(String source, byte[] bytes) {
    List<byte[]> lines = new ArrayList<>();
    int start = 0;
    while (start < bytes.length) {
      int newline = indexOf(bytes, (byte) '\n', start);
      int end = newline < 0 ? bytes.length : newline;
      int contentEnd = end > start && bytes[end - 1] == '\r' ? end - 1 : end;
      if (contentEnd == start) {
        throw InputException.at(source, lines.size() + 1, "empty pattern", "remove the blank line" + EMPTY_WHY);
      }
      lines.add(Arrays.copyOfRange(bytes, start, contentEnd));
      start = newline < 0 ? bytes.length : newline + 1;
    }
    return lines;
  }

  /** Patterns given on the command line ({@code -e}): {@link #argumentLines}, then {@link #of}. */
  public static PatternSet fromArguments(List<String> values, boolean caseInsensitive) {
    return of(argumentLines("-e", values), caseInsensitive, "-e");
  }

  /**
   * The patterns in command-line {@code values}, encoded as UTF-8: as with {@code grep -F -e}, a
   * value holding newlines is several patterns, one per line (only LF ends a line here). An empty
   * value or an empty line is an error naming the value, where grep would take it as an empty
   * pattern that matches every line; {@code source} names the option in errors.
   */
  public static List<byte[]> argumentLines(String source, List<String> values) {
    return argumentByteLines(source, values.stream().map(value -> value.getBytes(StandardCharsets.UTF_8)).toList());
  }

  /**
   * As {@link #argumentLines}, for arguments given as their bytes: the command line's own, which
   * need not be valid UTF-8 (grep -F -e $'\xff' searches for the byte FF).
   */
  public static List<byte[]> argumentByteLines(String source, List<byte[]> values) {
    List<byte[]> patterns = new ArrayList<>(values.size());
    for (int k = 0; k < values.size(); k++) {
      byte[] value = values.get(k);
      if (value.length == 0) {
        throw InputException.of(source, "pattern argument " + (k + 1) + " is empty", "remove it" + EMPTY_WHY);
      }
      List<byte[]> lines = new ArrayList<>();
      int start = 0;
      while (true) {
        int newline = indexOf(value, (byte) '\n', start);
        lines.add(Arrays.copyOfRange(value, start, newline < 0 ? value.length : newline));
        if (newline < 0) {
          break;
        }
        start = newline + 1;
      }
      for (int j = 0; j < lines.size(); j++) {
        if (lines.get(j).length == 0) {
          String newline = j == 0 ? "the newline at its start" : j == lines.size() - 1 ? "the newline at its end"
              : "one of its two newlines in a row";
          throw InputException.of(source, "line " + (j + 1) + " of pattern argument " + (k + 1) + " is empty (a newline"
              + " separates patterns, as in grep)", "remove " + newline + EMPTY_WHY);
        }
        patterns.add(lines.get(j));
      }
    }
    return patterns;
  }

  /** Validates {@code patterns} (copied) against the limits; {@code source} names them in errors. */
  public static PatternSet of(List<byte[]> patterns, boolean caseInsensitive, String source) {
    if (patterns.isEmpty()) {
      throw InputException.of(source, "no patterns given", "pass at least one pattern with -e PATTERN or -f FILE");
    }
    if (patterns.size() > MAX_PATTERNS) {
      throw InputException.of(source, patterns.size() + " patterns exceed the limit of " + MAX_PATTERNS, SPLIT_FIX);
    }
    List<byte[]> copies = new ArrayList<>(patterns.size());
    List<byte[]> matchCopies = new ArrayList<>(patterns.size());
    int maxLength = 0;
    long totalBytes = 0;
    for (int id = 0; id < patterns.size(); id++) {
      byte[] pattern = patterns.get(id);
      if (pattern.length == 0) {
        throw InputException.of(source, "pattern " + (id + 1) + " is empty", "remove it" + EMPTY_WHY);
      }
      if (pattern.length > MAX_PATTERN_LENGTH) {
        throw InputException.of(source, "pattern " + (id + 1) + " is " + pattern.length
            + " bytes, longer than the " + MAX_PATTERN_LENGTH + "-byte limit", "shorten the pattern");
      }
      totalBytes += pattern.length;
      if (totalBytes > MAX_TOTAL_BYTES) {
        throw InputException.of(source, "the patterns exceed the " + MAX_TOTAL_BYTES + "-byte total limit at pattern "
            + (id + 1), SPLIT_FIX);
      }
      maxLength = Math.max(maxLength, pattern.length);
      byte[] copy = pattern.clone();
      copies.add(copy);
      matchCopies.add(caseInsensitive ? fold(copy) : copy);
    }
    return new PatternSet(List.copyOf(copies), List.copyOf(matchCopies), caseInsensitive, maxLength, totalBytes);
  }

  /** The byte an ASCII-case-insensitive matcher compares: 'A'..'Z' become 'a'..'z'. */
  static int foldByte(int unsignedByte) {
    return unsignedByte >= 'A' && unsignedByte <= 'Z' ? unsignedByte + ('a' - 'A') : unsignedByte;
  }

  private static byte[] fold(byte[] pattern) {
    byte[] folded = new byte[pattern.length];
    for (int i = 0; i < pattern.length; i++) {
      folded[i] = (byte) foldByte(pattern[i] & 0xFF);
    }
    return folded;
  }

  private static int indexOf(byte[] bytes, byte value, int from) {
    for (int i = from; i < bytes.length; i++) {
      if (bytes[i] == value) {
        return i;
      }
    }
    return -1;
  }

  public int size() {
    return patterns.size();
  }

  /**
   * The bytes the automaton matches for pattern {@code id} (ASCII-lowercased when
   * {@link #caseInsensitive()}). The array is shared: callers must not modify it.
   */
  byte[] matchBytes(int id) {
    return matchPatterns.get(id);
  }

  /** Pattern {@code id} as given (a copy), for output such as {@code path:offset:pattern}. */
  public byte[] pattern(int id) {
    return patterns.get(id).clone();
  }

  public int length(int id) {
    return patterns.get(id).length;
  }

  public boolean caseInsensitive() {
    return caseInsensitive;
  }

  /** Length of the longest pattern; {@link ChunkPlanner} overlaps chunks by this minus one. */
  public int maxLength() {
    return maxLength;
  }

  public long totalBytes() {
    return totalBytes;
  }
}

package dev.vyre.graph;

import java.util.regex.Pattern;

/**
 * Splits a text line into whitespace-separated fields without allocating a String per field: the
 * readers see one line per edge, and a graph file may have billions.
 */
final class Fields {

  // Double.parseDouble also takes Java-only forms (hex, a trailing d or f); this keeps to what a C
  // reader of the same file (strtod) takes in decimal.
  private static final Pattern REAL =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?(?i:inf|infinity|nan)");

  private final int[] starts;
  private final int[] ends;
  private String line = "";
  private int count;

  Fields(int capacity) {
    starts = new int[capacity];
    ends = new int[capacity];
  }

  /**
   * Splits {@code text[0, end)} on spaces and tabs and returns the number of fields; only the first
   * {@code capacity} are kept.
   */
  int split(String text, int end) {
    line = text;
    count = 0;
    int i = 0;
    while (true) {
      while (i < end && isBlank(text.charAt(i))) {
        i++;
      }
      if (i >= end) {
        return count;
      }
      int from = i;
      while (i < end && !isBlank(text.charAt(i))) {
        i++;
      }
      if (count < starts.length) {
        starts[count] = from;
        ends[count] = i;
      }
      count++;
    }
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0B;
  }

  /** Field {@code k} as a String, for messages and the rare parse that needs one. */
  String text(int k) {
    return line.substring(starts[k], ends[k]);
  }

  /**
   * Field {@code k} as a non-negative decimal integer, or -1 if it is not one (a sign, another
   * character, or a value above {@code limit}).
   */
  long natural(int k, long limit) {
    int from = starts[k];
    int to = ends[k];
    if (from < to && line.charAt(from) == '+') {
      from++;
    }
    if (from == to) {
      return -1;
    }
    long value = 0;
    for (int i = from; i < to; i++) {
      int digit = line.charAt(i) - '0';
      if (digit < 0 || digit > 9) {
        return -1;
      }
      // Checked before multiplying, so a long run of digits cannot overflow into range.
      if (value > (limit - digit) / 10) {
        return -1;
      }
      value = value * 10 + digit;
    }
    return value;
  }

  /** Whether field {@code k} is an integer, with an optional sign, of any size. */
  boolean isInteger(int k) {
    int from = starts[k];
    int to = ends[k];
    if (from < to && (line.charAt(from) == '+' || line.charAt(from) == '-')) {
      from++;
    }
    if (from == to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = line.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** Whether field {@code k} is a decimal real number as Matrix Market writes them (C's %g and %e forms). */
  boolean isReal(int k) {
    return REAL.matcher(line).region(starts[k], ends[k]).matches();
  }
}

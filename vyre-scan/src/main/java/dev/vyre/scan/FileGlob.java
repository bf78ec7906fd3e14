package dev.vyre.scan;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * One {@code --include}, {@code --exclude} or {@code --exclude-dir} pattern, matched against a file
 * name as GNU grep matches it: fnmatch(3) without flags. {@code *} matches any run of characters and
 * {@code ?} any one, a slash or a leading dot included; {@code [...]} matches one character of a set
 * ({@code !} or {@code ^} first negates it; ranges such as {@code a-z}; classes such as
 * {@code [:digit:]}); a backslash makes the next character literal; an unclosed {@code [} is literal.
 *
 * <p>A name is bytes. It matches when it matches as UTF-8 characters (if it is valid UTF-8) or as
 * bytes: in a UTF-8 locale glibc's fnmatch answers so ({@code ?.txt} and {@code ??.txt} both match
 * {@code é.txt}, and {@code n?.bin} matches a name with one byte that is not UTF-8 there).
 */
public final class FileGlob {

  /** The token for {@code *}; the others each match one character. */
  private static final IntPredicate STAR = c -> true;

  private final String pattern;
  private final IntPredicate[] characters;
  private final IntPredicate[] bytes;

  private FileGlob(String pattern) {
    this.pattern = pattern;
    this.characters = compile(pattern.codePoints().toArray(), false);
    this.bytes = compile(units(pattern.getBytes(StandardCharsets.UTF_8)), true);
  }

  public static FileGlob of(String pattern) {
    return new FileGlob(pattern);
  }

  /** Whether the whole of {@code name} matches. */
  public boolean matches(byte[] name) {
    int[] text = characters(name);
    return text != null && match(characters, text) || match(bytes, units(name));
  }

  @Override
  public String toString() {
    return pattern;
  }

  private static int[] units(byte[] bytes) {
    int[] units = new int[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      units[i] = bytes[i] & 0xFF;
    }
    return units;
  }

  /** The code points of {@code bytes}, or null when they are not UTF-8. */
  private static int[] characters(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).codePoints().toArray();
    } catch (CharacterCodingException notUtf8) {
      return null;
    }
  }

  /** Greedy with one backtrack point: each token but {@link #STAR} matches exactly one unit. */
  private static boolean match(IntPredicate[] glob, int[] name) {
    int g = 0;
    int n = 0;
    int star = -1;
    int starAt = 0;
    while (n < name.length) {
      if (g < glob.length && glob[g] == STAR) {
        star = g++;
        starAt = n;
      } else if (g < glob.length && glob[g].test(name[n])) {
        g++;
        n++;
      } else if (star >= 0) {
        g = star + 1;
        n = ++starAt;
      } else {
        return false;
      }
    }
    while (g < glob.length && glob[g] == STAR) {
      g++;
    }
    return g == glob.length;
  }

  /** {@code p} as tokens over characters, or over bytes when {@code bytes} says so. */
  private static IntPredicate[] compile(int[] p, boolean bytes) {
    List<IntPredicate> tokens = new ArrayList<>();
    for (int i = 0; i < p.length; i++) {
      int c = p[i];
      if (c == '*') {
        tokens.add(STAR);
      } else if (c == '?') {
        tokens.add(any -> true);
      } else if (c == '[' && closingBracket(p, i) > 0) {
        int end = closingBracket(p, i);
        tokens.add(bracket(p, i + 1, end, bytes));
        i = end;
      } else {
        // A trailing backslash stays itself, as grep compares a pattern without wildcards.
        int literal = c == '\\' && i + 1 < p.length ? p[++i] : c;
        tokens.add(u -> u == literal);
      }
    }
    return tokens.toArray(IntPredicate[]::new);
  }

  /** The index of the {@code ]} that closes the bracket expression opened at {@code open}, or -1. */
  private static int closingBracket(int[] p, int open) {
    int i = open + 1;
    if (i < p.length && (p[i] == '!' || p[i] == '^')) {
      i++;
    }
    // A ] first in the set is a member.
    if (i < p.length && p[i] == ']') {
      i++;
    }
    for (; i < p.length; i++) {
      if (p[i] == '\\') {
        i++;
      } else if (p[i] == '[' && i + 1 < p.length && p[i + 1] == ':') {
        int close = classEnd(p, i + 2);
        i = close > 0 ? close + 1 : i;
      } else if (p[i] == ']') {
        return i;
      }
    }
    return -1;
  }

  /** The index of the {@code :} of the {@code :]} that ends a class name starting at {@code from}, or -1. */
  private static int classEnd(int[] p, int from) {
    for (int i = from; i + 1 < p.length; i++) {
      if (p[i] == ':' && p[i + 1] == ']') {
        return i;
      }
      if (p[i] < 'a' || p[i] > 'z') {
        return -1;
      }
    }
    return -1;
  }

  /** The set {@code p[from, end)}: members, ranges and classes, negated by a leading ! or ^. */
  private static IntPredicate bracket(int[] p, int from, int end, boolean bytes) {
    boolean negated = p[from] == '!' || p[from] == '^';
    IntPredicate set = u -> false;
    for (int i = negated ? from + 1 : from; i < end; i++) {
      if (p[i] == '[' && i + 1 < end && p[i + 1] == ':' && classEnd(p, i + 2) > 0) {
        int close = classEnd(p, i + 2);
        IntPredicate members = characterClass(new String(p, i + 2, close - i - 2));
        // A byte above ASCII is no character of its own, so it is in no class.
        set = set.or(bytes ? u -> u < 0x80 && members.test(u) : members);
        i = close + 1;
        continue;
      }
      int low = p[i] == '\\' ? p[++i] : p[i];
      int high = low;
      if (i + 2 < end && p[i + 1] == '-') {
        i += 2;
        high = p[i] == '\\' && i + 1 < end ? p[++i] : p[i];
      }
      int lo = low;
      int hi = high;
      set = set.or(u -> u >= lo && u <= hi);
    }
    return negated ? set.negate() : set;
  }

  /**
   * A POSIX class: ASCII as in the C locale, and letters beyond ASCII as Java classifies them (what
   * a UTF-8 locale's iswalpha and friends say). An unknown class matches nothing.
   */
  private static IntPredicate characterClass(String name) {
    return switch (name) {
      case "alpha" -> Character::isLetter;
      case "upper" -> Character::isUpperCase;
      case "lower" -> Character::isLowerCase;
      case "alnum" -> u -> Character.isLetter(u) || u >= '0' && u <= '9';
      case "digit" -> u -> u >= '0' && u <= '9';
      case "xdigit" -> u -> u >= '0' && u <= '9' || u >= 'a' && u <= 'f' || u >= 'A' && u <= 'F';
      case "space" -> u -> u == ' ' || u >= '\t' && u <= '\r';
      case "blank" -> u -> u == ' ' || u == '\t';
      case "cntrl" -> u -> u < 0x20 || u == 0x7F;
      case "punct" -> u -> u > 0x20 && u < 0x7F && !Character.isLetterOrDigit(u);
      case "graph" -> u -> u > 0x20 && u < 0x7F || u > 0x7F && Character.isLetterOrDigit(u);
      case "print" -> u -> u >= 0x20 && u < 0x7F || u > 0x7F && Character.isLetterOrDigit(u);
      default -> u -> false;
    };
  }
}

package dev.vyre.cli;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The grep options {@code vyre scan} does not have, each with why and what to do instead. A grep
 * user who types one gets this, not picocli's nearest option by spelling (it offered
 * {@code --verbose} for {@code -v}, grep's invert).
 */
final class UnsupportedGrepOptions {

  private UnsupportedGrepOptions() {}

  private static final String NOT_LINES = "it prints matches, not lines";
  private static final String LITERALS = "patterns are fixed strings (as grep -F); vyre scan has no regular expressions";
  private static final String LITERALS_FIX = "give the literal strings with -e or -f, or use grep or rg for"
      + " regular expressions";
  private static final String CONTEXT = "vyre scan prints no context lines (" + NOT_LINES + ")";
  private static final String CONTEXT_FIX = "find each match's line with -n, then read around it (sed -n 'LINEp'"
      + " FILE), or use grep";

  private record Unsupported(String names, String grepMeaning, String problem, String fix) {}

  /** By each name: -v and --invert-match alike. */
  private static final Map<String, Unsupported> OPTIONS = new HashMap<>();

  static {
    add(new Unsupported("-v, --invert-match", "invert the match",
        "vyre scan does not support inverted matching (" + NOT_LINES + ")",
        "list the files without a match with -L, or use grep -v for the lines without one"));
    add(new Unsupported("-x, --line-regexp", "match whole lines", "vyre scan does not match whole lines ("
        + NOT_LINES + ")", "match whole words with -w, or use grep -x"));
    add(new Unsupported("-E, --extended-regexp", "extended regular expressions", LITERALS, LITERALS_FIX));
    add(new Unsupported("-G, --basic-regexp", "basic regular expressions", LITERALS, LITERALS_FIX));
    add(new Unsupported("-P, --perl-regexp", "Perl regular expressions", LITERALS, LITERALS_FIX));
    add(new Unsupported("-A, --after-context", "lines after each match", CONTEXT, CONTEXT_FIX));
    add(new Unsupported("-B, --before-context", "lines before each match", CONTEXT, CONTEXT_FIX));
    add(new Unsupported("-C, --context", "lines around each match", CONTEXT, CONTEXT_FIX));
    add(new Unsupported("-z, --null-data", "lines that end in NUL", "vyre scan has no lines to end (" + NOT_LINES
        + ")", "leave -z out: matches are found across any byte"));
    add(new Unsupported("-I", "skip binary files", "vyre scan reads binary files like text and cannot tell them"
        + " apart", "leave binary files out with --exclude GLOB"));
    add(new Unsupported("--binary-files", "how to treat binary files", "vyre scan reads binary files like text (as"
        + " grep --binary-files=text)", "leave --binary-files out, or leave binary files out with --exclude GLOB"));
    add(new Unsupported("-R, --dereference-recursive", "follow every symbolic link", "vyre scan follows the symbolic"
        + " links named as PATH, not those inside directories (as grep -r)", "name the linked directories as PATHs"));
    add(new Unsupported("--color, --colour", "color the output", "vyre scan does not color its output",
        "leave --color out"));
  }

  private static void add(Unsupported unsupported) {
    for (String name : unsupported.names().split(", ")) {
      OPTIONS.put(name, unsupported);
    }
  }

  /**
   * The message for an argument picocli did not match, when it is (or, as a cluster of short
   * options like {@code -iv}, holds) a grep option vyre scan lacks: {@code NAME (grep's ...):
   * problem. Fix: ...}; the first such option of a cluster.
   */
  static Optional<String> message(String argument) {
    if (argument.startsWith("--")) {
      return message(argument.split("=", 2)[0], OPTIONS.get(argument.split("=", 2)[0]));
    }
    if (argument.length() >= 2 && argument.charAt(0) == '-') {
      for (int i = 1; i < argument.length(); i++) {
        String name = "-" + argument.charAt(i);
        if (OPTIONS.containsKey(name)) {
          return message(name, OPTIONS.get(name));
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> message(String name, Unsupported unsupported) {
    return Optional.ofNullable(unsupported).map(option -> name + " (grep's " + option.names() + ": "
        + option.grepMeaning() + "): " + option.problem() + ". Fix: " + option.fix());
  }
}

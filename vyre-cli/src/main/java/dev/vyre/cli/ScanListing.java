package dev.vyre.cli;

import picocli.CommandLine.Option;

/**
 * {@code vyre scan -l} and {@code -L}: print only the paths of the files with a match, or of those
 * without one. As in grep, of the two the last given wins.
 */
final class ScanListing {

  enum Files { WITH_MATCHES, WITHOUT_MATCH }

  /** Which files are listed; null for neither option. */
  Files files;

  @Option(names = {"-l", "--files-with-matches"}, description = "Print only the path of each file with a match, once,"
      + " in the order files are printed (overrides -c; with --json, one {\"path\":...} object per file).")
  void withMatches(boolean on) {
    files = on ? Files.WITH_MATCHES : files;
  }

  @Option(names = {"-L", "--files-without-match"}, description = "Print only the path of each file without a match"
      + " (of -l and -L, the last given wins). The exit status stays 0 if any file matched, as in GNU grep 3.5+.")
  void withoutMatch(boolean on) {
    files = on ? Files.WITHOUT_MATCH : files;
  }
}

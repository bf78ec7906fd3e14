package dev.vyre.cli;

import dev.vyre.scan.PatternSet;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The grep options of {@code vyre scan} that shape each printed match: file names ({@code -H},
 * {@code -h}, {@code -Z}), line numbers ({@code -n}) and whole words ({@code -w}), and the ones
 * accepted because grep users type them and vyre already behaves so ({@code -o}, {@code -b},
 * {@code -a}).
 */
final class ScanGrepOptions {

  /** Whether lines and counts start with the file's name; -H and -h, the last given wins. */
  boolean fileNames = true;

  @Option(names = {"-H", "--with-filename"}, description = "Print the file name with each match (the default, also"
      + " for a single file, where grep leaves it out).")
  void withFileName(boolean on) {
    fileNames = on ? true : fileNames;
  }

  @Option(names = {"-h", "--no-filename"}, description = "Leave the file name out of matches and counts (not out of"
      + " -l, -L or --json); of -H and -h, the last given wins.")
  void noFileName(boolean on) {
    fileNames = on ? false : fileNames;
  }

  @Option(names = {"-n", "--line-number"}, description = "Print the 1-based line number of each match before its"
      + " offset: path:line:offset:pattern (as grep -n -b -o); with --json, a \"line\" field. Reads each file with"
      + " a match a second time, on the host, to count its newlines.")
  boolean lineNumbers;

  @Option(names = {"-w", "--word-regexp"}, description = "Count a match only where the bytes before and after it are"
      + " not word characters (ASCII letters, digits, _), or are the file's start or end. Reads each file with a"
      + " match a second time, on the host.")
  boolean words;

  @Option(names = {"-Z", "--null"}, description = "Print a NUL byte after each file name instead of ':' (with -l or -L,"
      + " instead of the newline), as grep -Z.")
  boolean nullAfterName;

  @Option(names = {"-o", "--only-matching"}, description = "Accepted for grep users: vyre scan always prints the"
      + " matches only.")
  boolean onlyMatching;

  @Option(names = {"-b", "--byte-offset"}, description = "Accepted for grep users: vyre scan always prints each"
      + " match's byte offset.")
  boolean byteOffset;

  @Option(names = {"-a", "--text"}, description = "Accepted for grep users: binary files are always scanned like text.")
  boolean text;

  /** How files are named in the output; {@code standardInput} is the file that holds stdin, or null. */
  ScanFileNames names(Path standardInput) {
    return new ScanFileNames(fileNames, nullAfterName, standardInput);
  }

  /**
   * What must be read around each match for these options; null when nothing is: line numbers only
   * matter where matches are printed one by one.
   */
  HitContext context(PatternSet patterns, boolean printsEachMatch) {
    boolean lines = lineNumbers && printsEachMatch;
    return words || lines ? new HitContext(patterns, lines, words) : null;
  }
}

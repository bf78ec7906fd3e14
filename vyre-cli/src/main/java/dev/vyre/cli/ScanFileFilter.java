package dev.vyre.cli;

import dev.vyre.scan.ScanFilter;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code vyre scan}'s {@code --include}, {@code --exclude} and {@code --exclude-dir}: the
 * {@link ScanFilter} its walk skips files and directories by, with grep's rules.
 */
final class ScanFileFilter {

  ScanFilter filter = ScanFilter.NONE;

  // Setters, not lists: --include and --exclude make one list of rules in command-line order, since
  // the last rule that matches a file decides. picocli passes every value so far, the new one last.
  @Option(names = "--include", paramLabel = "GLOB", description = "Scan only files whose base name matches GLOB"
      + " (repeatable; * and ? match any character, / and a leading dot too, as in grep); a file named as PATH is"
      + " matched by its name or any suffix after a /. Of several --include and --exclude, the last that matches"
      + " decides; a file none matches is scanned unless the first of them is --include.")
  void include(List<String> globs) {
    if (!globs.isEmpty()) {
      filter = filter.include(globs.getLast());
    }
  }

  @Option(names = "--exclude", paramLabel = "GLOB", description = "Skip files whose base name matches GLOB"
      + " (repeatable; a file named as PATH too, by its name or any suffix after a /).")
  void exclude(List<String> globs) {
    if (!globs.isEmpty()) {
      filter = filter.exclude(globs.getLast());
    }
  }

  @Option(names = "--exclude-dir", paramLabel = "GLOB", description = "Skip directories whose base name matches GLOB"
      + " (repeatable; a directory named as PATH too, by its name or any suffix after a /).")
  void excludeDirectory(List<String> globs) {
    if (!globs.isEmpty()) {
      filter = filter.excludeDirectory(globs.getLast());
    }
  }
}

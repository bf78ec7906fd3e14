package dev.vyre.scan;

import dev.vyre.io.PathBytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which files and directories {@link ScanTargets} skips, by GNU grep's {@code --include},
 * {@code --exclude} and {@code --exclude-dir} rules. A file or directory found while walking is
 * matched by its base name. One named on the command line is matched by its whole name or any
 * suffix that starts after a slash ({@code --exclude=a.txt} skips {@code dir/a.txt}, and so does
 * {@code --exclude='*.txt'}, since {@code *} matches slashes too).
 *
 * <p>The file rules keep the command line's order: the last rule a file's name matches decides
 * (an include scans it, an exclude skips it), and a file that no rule matches is skipped only when
 * the first rule is an include. Directories only meet {@code --exclude-dir}; {@code --include} never
 * keeps a directory from being walked.
 *
 * @param fileRules the {@code --include} and {@code --exclude} rules, in command-line order
 * @param excludedDirectories the {@code --exclude-dir} globs
 */
public record ScanFilter(List<Rule> fileRules, List<FileGlob> excludedDirectories) {

  /** Skips nothing. */
  public static final ScanFilter NONE = new ScanFilter(List.of(), List.of());

  /** An {@code --include} ({@code include} true) or {@code --exclude} glob. */
  public record Rule(FileGlob glob, boolean include) {}

  public ScanFilter {
    fileRules = List.copyOf(fileRules);
    excludedDirectories = List.copyOf(excludedDirectories);
  }

  public ScanFilter include(String glob) {
    return withRule(new Rule(FileGlob.of(glob), true));
  }

  public ScanFilter exclude(String glob) {
    return withRule(new Rule(FileGlob.of(glob), false));
  }

  /** Adds an {@code --exclude-dir} glob; as grep does, trailing slashes are dropped ({@code sub/} is {@code sub}). */
  public ScanFilter excludeDirectory(String glob) {
    String trimmed = glob;
    while (trimmed.length() > 1 && trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    List<FileGlob> directories = new ArrayList<>(excludedDirectories);
    directories.add(FileGlob.of(trimmed));
    return new ScanFilter(fileRules, directories);
  }

  private ScanFilter withRule(Rule rule) {
    List<Rule> rules = new ArrayList<>(fileRules);
    rules.add(rule);
    return new ScanFilter(rules, excludedDirectories);
  }

  /**
   * Whether to skip {@code path}: a directory by the {@code --exclude-dir} globs, anything else by
   * the file rules. {@code named}: it was named on the command line, and {@code path} is that name;
   * else it was found while walking and {@code path} is its base name.
   */
  public boolean skips(Path path, boolean directory, boolean named) {
    if (directory ? excludedDirectories.isEmpty() : fileRules.isEmpty()) {
      return false;
    }
    byte[] name = PathBytes.of(path);
    if (directory) {
      for (FileGlob glob : excludedDirectories) {
        if (matches(glob, name, named)) {
          return true;
        }
      }
      return false;
    }
    for (Rule rule : fileRules.reversed()) {
      if (matches(rule.glob, name, named)) {
        return !rule.include;
      }
    }
    return fileRules.getFirst().include;
  }

  /** The whole name, or for a named path also each suffix after a slash that is not followed by another. */
  private static boolean matches(FileGlob glob, byte[] name, boolean named) {
    if (glob.matches(name)) {
      return true;
    }
    if (named) {
      for (int i = 0; i < name.length; i++) {
        if (name[i] == '/' && (i + 1 == name.length || name[i + 1] != '/')
            && glob.matches(Arrays.copyOfRange(name, i + 1, name.length))) {
          return true;
        }
      }
    }
    return false;
  }
}

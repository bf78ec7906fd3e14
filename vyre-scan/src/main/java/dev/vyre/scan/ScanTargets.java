package dev.vyre.scan;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The files {@code vyre scan PATH...} reads, found the way {@code grep -r} finds them: a path
 * named on the command line is followed if it is a symbolic link; directories are walked
 * recursively, in name order so that output is reproducible, without following the symbolic links
 * found inside them; only regular files are scanned. What cannot be found or listed is a
 * {@link Problem}, reported and skipped; a directory that fails part-way through its listing is one
 * too, and the entries it listed before failing are still walked. A {@link ScanFilter} skips files and directories by name,
 * as grep's {@code --include}, {@code --exclude} and {@code --exclude-dir} do.
 *
 * @param files the regular files, in walk order
 * @param problems paths that could not be scanned, with grep-style reasons
 */
public record ScanTargets(List<ScanFile> files, List<Problem> problems) {

  /** A path that is skipped, and why ("No such file or directory", "Permission denied", ...). */
  public record Problem(Path path, String reason) {}

  /** Sum of the files' sizes, for progress. */
  public long totalBytes() {
    long total = 0;
    for (ScanFile file : files) {
      total += file.size();
    }
    return total;
  }

  /** Walks {@code roots} in order. */
  public static ScanTargets walk(List<Path> roots) {
    return walk(roots, ScanFilter.NONE);
  }

  /**
   * Walks {@code roots} in order, skipping what {@code filter} skips. A root that does not exist is
   * a problem even when the filter would skip it, as in grep. The empty path, the current directory
   * scanned for want of a PATH, is never skipped (grep: {@code --exclude-dir=.} with no PATH).
   */
  public static ScanTargets walk(List<Path> roots, ScanFilter filter) {
    return walk(roots, filter, Path.of(""));
  }

  /**
   * Walks {@code roots} as seen from the directory {@code base}: a relative root names a path under
   * it, but files and problems keep the names as given ({@link ScanFile#location()} is where a file
   * is opened). The empty path is the working directory itself.
   */
  public static ScanTargets walk(List<Path> roots, ScanFilter filter, Path base) {
    return walk(roots, filter, base, Files::newDirectoryStream);
  }

  /**
   * Lists a directory: {@link Files#newDirectoryStream}, or in tests one that fails as procfs does for
   * root ({@code /proc/1/map_files}), which permission bits cannot make happen.
   */
  interface DirectoryLister {
    DirectoryStream<Path> open(Path directory) throws IOException;
  }

  static ScanTargets walk(List<Path> roots, ScanFilter filter, DirectoryLister lister) {
    return walk(roots, filter, Path.of(""), lister);
  }

  static ScanTargets walk(List<Path> roots, ScanFilter filter, Path base, DirectoryLister lister) {
    ScanTargets targets = new ScanTargets(new ArrayList<>(), new ArrayList<>());
    for (Path root : roots) {
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(base.resolve(root), BasicFileAttributes.class);
      } catch (IOException e) {
        targets.problems.add(new Problem(root, reason(e)));
        continue;
      }
      if (!root.toString().isEmpty() && filter.skips(root, attributes.isDirectory(), true)) {
        continue;
      }
      targets.visit(root, base, attributes, true, filter, lister);
    }
    return new ScanTargets(List.copyOf(targets.files), List.copyOf(targets.problems));
  }

  private void visit(Path path, Path base, BasicFileAttributes attributes, boolean named, ScanFilter filter,
      DirectoryLister lister) {
    if (attributes.isRegularFile()) {
      files.add(new ScanFile(path, attributes.size(), base.resolve(path)));
    } else if (attributes.isDirectory()) {
      walkDirectory(path, base, filter, lister);
    } else if (named) {
      // Pipes and devices have no size to plan chunks by; inside a directory grep -r skips them too.
      problems.add(new Problem(path, "not a regular file or directory (vyre scan reads files, not pipes or devices)"));
    }
  }

  private void walkDirectory(Path directory, Path base, ScanFilter filter, DirectoryLister lister) {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = lister.open(base.resolve(directory))) {
      // Named as under the directory's given name; opened under base.
      stream.forEach(entry -> entries.add(directory.resolve(entry.getFileName())));
    } catch (IOException e) {
      problems.add(new Problem(directory, reason(e)));
    } catch (DirectoryIteratorException e) {
      // Opening may succeed and reading the entries fail (root reading /proc/1/map_files): that is this
      // directory's problem, as grep reports it, not the end of the walk.
      problems.add(new Problem(directory, reason(e.getCause())));
    }
    entries.sort(null);
    for (Path entry : entries) {
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(base.resolve(entry), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (IOException e) {
        problems.add(new Problem(entry, reason(e)));
        continue;
      }
      if (!filter.skips(entry.getFileName(), attributes.isDirectory(), false)) {
        visit(entry, base, attributes, false, filter, lister);
      }
    }
  }

  private static String reason(IOException e) {
    return switch (e) {
      case NoSuchFileException missing -> "No such file or directory";
      case AccessDeniedException denied -> "Permission denied";
      default -> e.getMessage() != null ? e.getMessage() : e.toString();
    };
  }
}

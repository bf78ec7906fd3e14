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
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

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
    Walk walk = new Walk(filter, base, lister);
    List<ScanFile> files = new ArrayList<>();
    List<Problem> problems = new ArrayList<>();
    for (Path root : roots) {
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(base.resolve(root), BasicFileAttributes.class);
      } catch (IOException e) {
        problems.add(new Problem(root, reason(e)));
        continue;
      }
      if (!root.toString().isEmpty() && filter.skips(root, attributes.isDirectory(), true)) {
        continue;
      }
      if (attributes.isRegularFile()) {
        files.add(new ScanFile(root, attributes.size(), base.resolve(root)));
      } else if (attributes.isDirectory()) {
        Listing listing = WALKERS.invoke(new DirectoryWalk(walk, root));
        listing.appendTo(files, problems);
      } else {
        // Pipes and devices have no size to plan chunks by; inside a directory grep -r skips them too.
        problems.add(new Problem(root, "not a regular file or directory (vyre scan reads files, not pipes or devices)"));
      }
    }
    return new ScanTargets(List.copyOf(files), List.copyOf(problems));
  }

  /**
   * The walk's threads, one per core: listing directories and reading each entry's attributes is a
   * syscall or two an entry, and directories are walked at once, each by a task of its own. Daemon
   * threads (ForkJoinPool's), started when the first directory is walked and kept for the next walk
   * (a service's).
   */
  private static final ForkJoinPool WALKERS = new ForkJoinPool(Math.max(2, Runtime.getRuntime().availableProcessors()));

  /** What every directory of one walk shares. */
  private record Walk(ScanFilter filter, Path base, DirectoryLister lister) {}

  /**
   * One directory's files and problems in walk order, its subdirectories' spliced in where they sort:
   * the same order a walk on one thread gives, whatever order the tasks finish in.
   */
  private static final class Listing {
    /** ScanFile, Problem or Listing (a subdirectory's), in walk order. */
    private final List<Object> entries = new ArrayList<>();

    void appendTo(List<ScanFile> files, List<Problem> problems) {
      for (Object entry : entries) {
        switch (entry) {
          case ScanFile file -> files.add(file);
          case Problem problem -> problems.add(problem);
          case Listing sub -> sub.appendTo(files, problems);
          default -> throw new IllegalStateException("unexpected walk entry " + entry);
        }
      }
    }
  }

  /** Walks one directory: lists and sorts it, reads its entries' attributes, forks its subdirectories. */
  private static final class DirectoryWalk extends RecursiveTask<Listing> {
    private final Walk walk;
    private final Path directory;

    DirectoryWalk(Walk walk, Path directory) {
      this.walk = walk;
      this.directory = directory;
    }

    @Override
    protected Listing compute() {
      Listing listing = new Listing();
      List<Path> names = new ArrayList<>();
      Path opened = walk.base.resolve(directory);
      try (DirectoryStream<Path> stream = walk.lister.open(opened)) {
        for (Path entry : stream) {
          names.add(entry.getFileName());
        }
      } catch (IOException e) {
        listing.entries.add(new Problem(directory, reason(e)));
      } catch (DirectoryIteratorException e) {
        // Opening may succeed and reading the entries fail (root reading /proc/1/map_files): that is this
        // directory's problem, as grep reports it, not the end of the walk.
        listing.entries.add(new Problem(directory, reason(e.getCause())));
      }
      names.sort(null);
      List<DirectoryWalk> forked = new ArrayList<>();
      for (Path name : names) {
        // Named as under the directory's given name; opened under base.
        Path entry = directory.resolve(name);
        Path location = opened.resolve(name);
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(location, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
          listing.entries.add(new Problem(entry, reason(e)));
          continue;
        }
        if (walk.filter.skips(name, attributes.isDirectory(), false)) {
          continue;
        }
        if (attributes.isRegularFile()) {
          listing.entries.add(new ScanFile(entry, attributes.size(), location));
        } else if (attributes.isDirectory()) {
          DirectoryWalk sub = new DirectoryWalk(walk, entry);
          sub.fork();
          forked.add(sub);
          listing.entries.add(sub);
        }
      }
      // Joined in reverse, newest first, so this thread runs its own forks it still holds.
      for (int i = forked.size() - 1; i >= 0; i--) {
        forked.get(i).join();
      }
      for (int i = 0; i < listing.entries.size(); i++) {
        if (listing.entries.get(i) instanceof DirectoryWalk sub) {
          listing.entries.set(i, sub.getRawResult());
        }
      }
      return listing;
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

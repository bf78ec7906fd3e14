package dev.vyre.bench;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a {@code vyre bench} command writes the files it measures: {@code --dir} (created when
 * missing, and kept), or a temporary directory that is removed with the named files at the end and
 * on Ctrl-C, so that a large corpus is never left behind.
 */
final class BenchWorkDirectory implements AutoCloseable {

  private final Path path;
  private final List<String> files;
  /** Removes a temporary directory on Ctrl-C; null for a --dir. */
  private final Thread cleanUp;

  private BenchWorkDirectory(Path path, List<String> files, boolean temporary) {
    this.path = path;
    this.files = files;
    this.cleanUp = temporary ? Thread.ofPlatform().unstarted(this::delete) : null;
    if (cleanUp != null) {
      Runtime.getRuntime().addShutdownHook(cleanUp);
    }
  }

  /** {@code dir} (a typed --dir error when it cannot be made one), or a new temporary directory named from {@code prefix}. */
  static BenchWorkDirectory open(Path dir, String prefix, String... files) throws IOException {
    return dir != null ? new BenchWorkDirectory(directory(dir), List.of(files), false)
        : new BenchWorkDirectory(Files.createTempDirectory(prefix), List.of(files), true);
  }

  Path resolve(String file) {
    return path.resolve(file);
  }

  /**
   * Refuses a {@code --size} of {@code bytes} that does not fit the free space, counting the space
   * {@code replaced} (a file about to be written again) takes now.
   */
  void requireRoom(long bytes, Path replaced) throws IOException {
    long free = Files.getFileStore(path).getUsableSpace() + (Files.exists(replaced) ? Files.size(replaced) : 0);
    if (bytes > free) {
      throw InputException.of("--size", String.format("%,d bytes do not fit the %,d bytes free in %s", bytes, free, path),
          "pass a smaller --size, or --dir on a disk with room");
    }
  }

  /** Removes a temporary directory and its files; a --dir stays. */
  @Override
  public void close() {
    if (cleanUp != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(cleanUp);
      } catch (IllegalStateException shuttingDown) {
        // The hook runs now and removes the directory.
      }
      delete();
    }
  }

  private void delete() {
    try {
      for (String file : files) {
        Files.deleteIfExists(path.resolve(file));
      }
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path directory(Path dir) {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw InputException.of("--dir", dir + " is not a directory", "pass a directory, or a path where one can be created");
    }
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      String why = e instanceof FileSystemException fs && fs.getReason() != null ? fs.getReason()
          : e instanceof NoSuchFileException ? "no such file or directory" : e.toString();
      throw InputException.of("--dir", dir + " cannot be created (" + why + ")",
          "pass a directory, or a path where one can be created");
    }
  }
}

package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanTargetsTest {

  @TempDir Path dir;

  @Test
  void walksDirectoriesInNameOrderAndKeepsNamedFilesInArgumentOrder() throws IOException {
    Path b = Files.writeString(dir.resolve("b"), "12");
    Files.createDirectories(dir.resolve("a/z"));
    Path az = Files.writeString(dir.resolve("a/z/file"), "1");
    Path ay = Files.writeString(dir.resolve("a/y"), "123");
    ScanTargets targets = ScanTargets.walk(List.of(b, dir));
    assertEquals(List.of(new ScanFile(b, 2), new ScanFile(ay, 3), new ScanFile(az, 1), new ScanFile(b, 2)),
        targets.files());
    assertEquals(8, targets.totalBytes());
    assertEquals(List.of(), targets.problems());
  }

  @Test
  void followsNamedSymbolicLinksButNotThoseInsideDirectories() throws IOException {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Path target = Files.writeString(outside.resolve("t"), "xy");
    Path tree = Files.createDirectories(dir.resolve("tree"));
    Files.createSymbolicLink(tree.resolve("link-to-file"), target);
    Files.createSymbolicLink(tree.resolve("link-to-dir"), outside);
    Path own = Files.writeString(tree.resolve("own"), "z");
    Path named = Files.createSymbolicLink(dir.resolve("named"), outside);
    assertEquals(List.of(new ScanFile(own, 1)), ScanTargets.walk(List.of(tree)).files());
    assertEquals(List.of(new ScanFile(named.resolve("t"), 2)), ScanTargets.walk(List.of(named)).files());
  }

  @Test
  void missingPathsAndDevicesAreProblemsAndTheRestIsWalked() throws IOException {
    Path file = Files.writeString(dir.resolve("f"), "x");
    Path missing = dir.resolve("missing");
    Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));
    ScanTargets targets = ScanTargets.walk(List.of(missing, Path.of("/dev/null"), dangling, file));
    assertEquals(List.of(new ScanFile(file, 1)), targets.files());
    assertEquals(List.of(new ScanTargets.Problem(missing, "No such file or directory"),
        new ScanTargets.Problem(Path.of("/dev/null"),
            "not a regular file or directory (vyre scan reads files, not pipes or devices)"),
        new ScanTargets.Problem(dangling, "No such file or directory")), targets.problems());
  }

  @Test
  void aFilterSkipsFilesAndDirectoriesByBaseNameWhileWalkingAndNamedOnesByName() throws IOException {
    Path txt = Files.writeString(dir.resolve("a.txt"), "1");
    Files.writeString(dir.resolve("b.log"), "1");
    Files.createDirectories(dir.resolve("sub/deep"));
    Path deep = Files.writeString(dir.resolve("sub/deep/c.txt"), "1");
    Files.createDirectories(dir.resolve("skip"));
    Files.writeString(dir.resolve("skip/d.txt"), "1");
    ScanFilter filter = ScanFilter.NONE.include("*.txt").excludeDirectory("skip");
    assertEquals(List.of(new ScanFile(txt, 1), new ScanFile(deep, 1)), ScanTargets.walk(List.of(dir), filter).files());
    assertEquals(List.of(), ScanTargets.walk(List.of(dir.resolve("skip")), filter).files(), "a named directory too");
    assertEquals(List.of(), ScanTargets.walk(List.of(dir.resolve("b.log")), filter).files(), "a named file too");
  }

  @Test
  void aMissingPathIsAProblemEvenWhenExcludedAndTheImplicitCurrentDirectoryIsNeverSkipped() {
    Path missing = dir.resolve("missing.txt");
    ScanTargets targets = ScanTargets.walk(List.of(missing), ScanFilter.NONE.exclude("*.txt"));
    assertEquals(List.of(new ScanTargets.Problem(missing, "No such file or directory")), targets.problems());
    ScanFilter everything = ScanFilter.NONE.excludeDirectory("*");
    assertEquals(List.of(), ScanTargets.walk(List.of(Path.of(".")), everything).files());
    // Surefire runs in the module's directory: its pom.xml is found, its directories are skipped.
    assertEquals(List.of(Path.of("pom.xml")),
        ScanTargets.walk(List.of(Path.of("")), everything).files().stream().map(ScanFile::path).toList());
  }

  /**
   * Before, a directory whose entries could not be read (root reading {@code /proc/1/map_files})
   * threw DirectoryIteratorException out of the walk and {@code vyre scan} exited 2 at once.
   */
  @Test
  void aDirectoryThatFailsWhileListedIsAProblemAndTheWalkGoesOn() throws IOException {
    Path before = Files.writeString(dir.resolve("a"), "1");
    Path broken = Files.createDirectories(dir.resolve("b"));
    Path listed = Files.writeString(broken.resolve("listed"), "12");
    Files.writeString(broken.resolve("unlisted"), "123");
    Path unopened = Files.createDirectories(dir.resolve("c"));
    Files.writeString(unopened.resolve("never"), "1");
    Path after = Files.writeString(dir.resolve("d"), "1234");
    ScanTargets targets = ScanTargets.walk(List.of(dir), ScanFilter.NONE, directory -> {
      if (directory.equals(unopened)) {
        throw new IOException("Input/output error");
      }
      DirectoryStream<Path> real = Files.newDirectoryStream(directory);
      return directory.equals(broken) ? failingAfterFirst(real, broken) : real;
    });
    assertEquals(List.of(new ScanFile(before, 1), new ScanFile(listed, 2), new ScanFile(after, 4)), targets.files(),
        "what the broken directory listed before failing is walked, and so is everything after it");
    assertEquals(List.of(new ScanTargets.Problem(broken, "Permission denied"),
        new ScanTargets.Problem(unopened, "Input/output error")), targets.problems());
  }

  /** The real thing, where procfs refuses root the listing (containers without CAP_SYS_ADMIN). */
  @Test
  void aProcfsDirectoryRootCannotListIsAProblemAndTheWalkGoesOn() throws IOException {
    Path mapFiles = Path.of("/proc/1/map_files");
    Assumptions.assumeTrue(listingFails(mapFiles), mapFiles + " is absent or lists here: nothing to reproduce");
    Path file = Files.writeString(dir.resolve("f"), "x");
    ScanTargets targets = ScanTargets.walk(List.of(mapFiles, file));
    assertEquals(List.of(new ScanFile(file, 1)), targets.files());
    assertEquals(List.of(new ScanTargets.Problem(mapFiles, "Permission denied")), targets.problems());
  }

  static boolean listingFails(Path directory) {
    if (!Files.isDirectory(directory)) {
      return false;
    }
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      stream.forEach(entry -> {});
      return false;
    } catch (IOException | DirectoryIteratorException e) {
      assertTrue(e instanceof DirectoryIteratorException && e.getCause() instanceof AccessDeniedException, e.toString());
      return true;
    }
  }

  /** {@code real}'s first entry by name, then the failure procfs gives root for /proc/1/map_files. */
  private static DirectoryStream<Path> failingAfterFirst(DirectoryStream<Path> real, Path directory) {
    List<Path> entries = new ArrayList<>();
    real.forEach(entries::add);
    Path first = entries.stream().sorted().findFirst().orElseThrow();
    return new DirectoryStream<>() {
      private boolean given;

      @Override
      public Iterator<Path> iterator() {
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            if (given) {
              throw new DirectoryIteratorException(new AccessDeniedException(directory.toString()));
            }
            return true;
          }

          @Override
          public Path next() {
            if (given) {
              throw new NoSuchElementException();
            }
            given = true;
            return first;
          }
        };
      }

      @Override
      public void close() throws IOException {
        real.close();
      }
    };
  }
}

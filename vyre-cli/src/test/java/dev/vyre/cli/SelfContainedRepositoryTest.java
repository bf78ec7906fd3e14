package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository explains itself: no tracked file sends a reader to a document that is not in it,
 * and every citation of one of our own docs ({@code docs/<NAME>.md, "<Section>"}) names a section that
 * exists. The documents the project started from are restated in {@code docs/} (DESIGN, PORTS,
 * PROTOCOL, CONFORMANCE, ANCHORS); cite those.
 */
class SelfContainedRepositoryTest {

  /**
   * References to documents outside the repository: the names of the specification pages the
   * project started from, their section marks, and paths into the folder beside the repository.
   * Written with escapes so that this file does not match itself.
   */
  private static final Pattern EXTERNAL = Pattern.compile(String.join("|",
      "DECISIONS\\.md", "DECISIONS \\u00a7",
      "vyre-runtime\\.md", "vyre-driver-cuda\\.md", "anchors\\.md",
      "(?<!docs/)CONFORMANCE\\.md", "CONFORMANCE \\u00a7",
      "\\u00a7",
      "\\.\\./shared", "shared/(?:spec|seeds|tools)\\b",
      "\\bseeds?/", "(?i:\\bseeds? 00[0-9]\\b)"));

  /** The benchmark log quotes old commands and wording as they were run; it is history, not guidance. */
  private static final Set<String> HISTORY = Set.of("docs/BENCHMARKS.md");

  /** {@code docs/<NAME>.md, "<Title>"} or the same with single quotes, after comment prefixes are folded away. */
  private static final Pattern CITATION =
      Pattern.compile("docs/([A-Z]+)\\.md`?,\\s+(?:\"([^\"]+)\"|'([^']+)')");

  @Test
  void noTrackedFileCitesADocumentOutsideTheRepository() {
    Path root = repositoryRoot();
    List<String> found = new ArrayList<>();
    for (Map.Entry<String, String> entry : trackedTexts(root).entrySet()) {
      String file = entry.getKey();
      String text = entry.getValue();
      String[] lines = text.split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        Matcher m = EXTERNAL.matcher(lines[i]);
        if (m.find()) {
          found.add(file + ":" + (i + 1) + ": \"" + m.group() + "\" in: " + lines[i].strip());
        }
      }
    }
    assertTrue(found.isEmpty(), "cite a section of our own docs instead (docs/DESIGN.md, docs/PORTS.md, docs/PROTOCOL.md,"
        + " docs/CONFORMANCE.md, docs/ANCHORS.md):\n" + String.join("\n", found));
  }

  @Test
  void everyCitedSectionOfOurDocsExists() {
    Path root = repositoryRoot();
    Map<String, List<String>> headings = new HashMap<>();
    List<String> broken = new ArrayList<>();
    int citations = 0;
    for (Map.Entry<String, String> entry : trackedTexts(root).entrySet()) {
      String file = entry.getKey();
      String text = entry.getValue();
      // A citation may wrap across comment lines: fold line breaks and comment prefixes into spaces.
      String folded = text.replaceAll("[ \\t]*\\r?\\n[ \\t]*(?:\\*(?!/)|//|#)?[ \\t]*", " ");
      Matcher m = CITATION.matcher(folded);
      while (m.find()) {
        citations++;
        String doc = "docs/" + m.group(1) + ".md";
        String title = m.group(2) != null ? m.group(2) : m.group(3);
        List<String> titles = headings.computeIfAbsent(doc, d -> headingsOf(root.resolve(d)));
        if (titles == null) {
          broken.add(file + ": " + doc + " does not exist (cited for \"" + title + "\")");
        } else if (titles.stream().noneMatch(h -> h.equals(title) || h.startsWith(title + " ("))) {
          broken.add(file + ": " + doc + " has no section \"" + title + "\"");
        }
      }
    }
    assertTrue(citations > 100, "the citation pattern still finds the project's citations (" + citations + ")");
    assertTrue(broken.isEmpty(), String.join("\n", broken));
  }

  @Test
  void theDocsThisTestPointsAtExist() {
    Path root = repositoryRoot();
    for (String doc : List.of("DESIGN", "PORTS", "PROTOCOL", "CONFORMANCE", "ANCHORS")) {
      assertTrue(Files.isRegularFile(root.resolve("docs/" + doc + ".md")), doc);
    }
    assertFalse(trackedFiles(root).isEmpty());
  }

  /** Heading texts of a markdown file without their backquotes, or null when the file is missing. */
  private static List<String> headingsOf(Path doc) {
    String text = readText(doc);
    if (text == null) {
      return null;
    }
    List<String> titles = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("#")) {
        titles.add(line.replaceFirst("^#+\\s*", "").replace("`", "").strip());
      }
    }
    return titles;
  }

  /** The working tree's root: the nearest directory above the test's working directory with a .git entry. */
  private static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve(".git"))) {
      dir = dir.getParent();
    }
    assertTrue(dir != null, "no .git above " + Path.of("").toAbsolutePath());
    return dir;
  }

  /** Paths relative to the root of the files git tracks, or of every file outside build output when git cannot say. */
  /** Every tracked text file but the history, by path, in git's order. */
  private static Map<String, String> trackedTexts(Path root) {
    Map<String, String> texts = new LinkedHashMap<>();
    for (String file : trackedFiles(root)) {
      String text = HISTORY.contains(file) ? null : readText(root.resolve(file));
      if (text != null) {
        texts.put(file, text);
      }
    }
    return texts;
  }

  private static List<String> trackedFiles(Path root) {
    try {
      Process git = new ProcessBuilder("git", "ls-files", "-z").directory(root.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      byte[] out = git.getInputStream().readAllBytes();
      if (git.waitFor() == 0) {
        List<String> files = new ArrayList<>();
        for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
          if (!name.isEmpty()) {
            files.add(name);
          }
        }
        return files;
      }
    } catch (IOException e) {
      // no git on this machine: walk the tree instead
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Set<String> skipped = Set.of(".git", "target", ".jre", ".device", ".idea");
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString().replace('\\', '/'))
          .filter(name -> Stream.of(name.split("/")).noneMatch(skipped::contains))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The file's text, or null for a missing or binary file (one with a NUL byte). */
  private static String readText(Path file) {
    try {
      if (!Files.isRegularFile(file)) {
        return null;
      }
      byte[] bytes = Files.readAllBytes(file);
      for (byte b : bytes) {
        if (b == 0) {
          return null;
        }
      }
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

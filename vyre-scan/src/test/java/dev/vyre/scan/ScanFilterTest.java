package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** grep's --include, --exclude and --exclude-dir rules, as GNU grep 3.8 applies them. */
class ScanFilterTest {

  private static boolean skipsFile(ScanFilter filter, String path, boolean named) {
    return filter.skips(Path.of(path), false, named);
  }

  @Test
  void nothingIsSkippedWithoutRules() {
    assertFalse(skipsFile(ScanFilter.NONE, "a.txt", false));
    assertFalse(ScanFilter.NONE.skips(Path.of("sub"), true, false));
  }

  @Test
  void theLastRuleThatMatchesDecidesAndTheFirstRuleDecidesForNamesNoneMatch() {
    ScanFilter includeFirst = ScanFilter.NONE.include("a*").exclude("*.txt");
    assertTrue(skipsFile(includeFirst, "a.txt", false), "*.txt came last");
    assertFalse(skipsFile(includeFirst, "a.log", false));
    assertTrue(skipsFile(includeFirst, "b.log", false), "no rule matches and the first is an include");
    ScanFilter excludeFirst = ScanFilter.NONE.exclude("*.txt").include("a*");
    assertFalse(skipsFile(excludeFirst, "a.txt", false), "a* came last");
    assertTrue(skipsFile(excludeFirst, "b.txt", false));
    assertFalse(skipsFile(excludeFirst, "b.log", false), "no rule matches and the first is an exclude");
  }

  @Test
  void aNamedPathMatchesByItsWholeNameOrASuffixAfterASlash() {
    ScanFilter filter = ScanFilter.NONE.exclude("a.txt");
    assertTrue(skipsFile(filter, "dir/a.txt", true));
    assertFalse(skipsFile(filter, "dir/a.txt", false), "found while walking, a name is a base name");
    assertTrue(skipsFile(ScanFilter.NONE.exclude("dir/a.txt"), "dir/a.txt", true));
    assertFalse(skipsFile(ScanFilter.NONE.exclude("ir/a.txt"), "dir/a.txt", true), "a suffix starts after a slash");
    assertFalse(skipsFile(ScanFilter.NONE.exclude("/a.txt"), "dir/a.txt", true));
    assertTrue(skipsFile(ScanFilter.NONE.include("*.txt"), "dir/b.log", true));
  }

  @Test
  void directoriesMeetOnlyExcludeDirWithItsTrailingSlashDropped() {
    ScanFilter filter = ScanFilter.NONE.include("*.txt").excludeDirectory("sub/");
    assertTrue(filter.skips(Path.of("sub"), true, false));
    assertTrue(filter.skips(Path.of("top/sub"), true, true));
    assertFalse(filter.skips(Path.of("other"), true, false), "--include never skips a directory");
    assertFalse(filter.skips(Path.of("top"), true, true));
    assertTrue(ScanFilter.NONE.excludeDirectory(".").skips(Path.of("."), true, true));
    assertTrue(ScanFilter.NONE.excludeDirectory(".*").skips(Path.of(".git"), true, false));
  }
}

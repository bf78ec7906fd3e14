package dev.vyre.scan;

import static dev.vyre.scan.ScanFixtures.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.runtime.dfa.Hit;
import java.util.List;
import org.junit.jupiter.api.Test;

class NaiveMatcherTest {

  @Test
  void findsOverlappingAndNestedMatches() {
    PatternSet set = PatternSet.fromArguments(List.of("aa", "a", "aaa"), false);
    assertEquals(List.of(new Hit(1, 0, 0), new Hit(1, 0, 1), new Hit(1, 0, 2), new Hit(1, 1, 0), new Hit(1, 1, 1),
        new Hit(1, 2, 1)), NaiveMatcher.findAll(set, bytes("aaa"), 1));
  }

  @Test
  void foldsAsciiWhenCaseInsensitive() {
    PatternSet folded = PatternSet.fromArguments(List.of("aB"), true);
    assertEquals(List.of(new Hit(0, 0, 0), new Hit(0, 3, 0)), NaiveMatcher.findAll(folded, bytes("Ab-ab\u00c1b"), 0));
    PatternSet exact = PatternSet.fromArguments(List.of("aB"), false);
    assertEquals(List.of(), NaiveMatcher.findAll(exact, bytes("Ab-ab"), 0));
  }
}

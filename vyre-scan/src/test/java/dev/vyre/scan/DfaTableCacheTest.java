package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;

class DfaTableCacheTest {

  @Test
  void theSamePatternsGetTheSameTableAndTheLeastRecentlyUsedGoesFirst() {
    DfaTableCache cache = new DfaTableCache(2);
    DfaTable ab = cache.compile(PatternSet.fromArguments(List.of("ab", "cd"), false));
    assertSame(ab, cache.compile(PatternSet.fromArguments(List.of("ab", "cd"), false)), "equal bytes, same table");
    DfaTable caseless = cache.compile(PatternSet.fromArguments(List.of("ab", "cd"), true));
    assertNotSame(ab, caseless, "-i is another table");
    assertSame(ab, cache.compile(PatternSet.fromArguments(List.of("ab", "cd"), false)), "ab used last");
    cache.compile(PatternSet.fromArguments(List.of("xyz"), false));
    assertSame(ab, cache.compile(PatternSet.fromArguments(List.of("ab", "cd"), false)), "kept: the caseless one went");
    assertNotSame(caseless, cache.compile(PatternSet.fromArguments(List.of("ab", "cd"), true)), "compiled again");
    assertEquals("2 of 2 tables kept, 3 hits, 4 compiled", cache.describe());
  }
}

package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.dfa.Hit;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class HitListTest {

  @Test
  void sortsByStartThenPatternIdAtTheLimits() {
    HitList hits = new HitList();
    hits.add(HitList.MAX_START - 1, 0);
    hits.add(5, (1 << 20) - 1);
    hits.add(5, 3);
    hits.add(0, 7);
    hits.sort();
    assertEquals(4, hits.size());
    assertEquals(List.of(new Hit(0, 0, 7), new Hit(0, 5, 3), new Hit(0, 5, (1 << 20) - 1),
        new Hit(0, HitList.MAX_START - 1, 0)), asHits(hits));
  }

  @Test
  void rejectsWhatDoesNotPack() {
    HitList hits = new HitList();
    assertThrows(InputException.class, () -> hits.add(HitList.MAX_START, 0));
    assertThrows(InputException.class, () -> hits.add(-1, 0));
    assertThrows(InputException.class, () -> hits.add(0, 1 << 20));
    assertEquals(0, hits.size());
  }

  @Property(tries = 50)
  void sortsLikeHitsDo(@ForAll @Size(max = 200) List<@LongRange(max = 1L << 42) Long> starts,
      @ForAll @IntRange(max = 1000) int seed) {
    HitList hits = new HitList();
    List<Hit> expected = new ArrayList<>();
    for (int i = 0; i < starts.size(); i++) {
      int patternId = (seed + i * 7919) % 1000;
      hits.add(starts.get(i), patternId);
      expected.add(new Hit(0, starts.get(i), patternId));
    }
    hits.sort();
    expected.sort(null);
    assertEquals(expected, asHits(hits));
  }

  private static List<Hit> asHits(HitList hits) {
    List<Hit> result = new ArrayList<>();
    for (int i = 0; i < hits.size(); i++) {
      result.add(new Hit(0, hits.start(i), hits.patternId(i)));
    }
    return result;
  }
}

package dev.vyre.graph.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Afforest's shared sample: where it falls and which label it finds. */
class AfforestTest {

  @Test
  void theSampleIsFixedSpreadAndInRange() {
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < Afforest.SAMPLES; i++) {
      int v = Afforest.sampleVertex(i, 1 << 20);
      assertTrue(v >= 0 && v < 1 << 20);
      assertEquals(v, Afforest.sampleVertex(i, 1 << 20));
      seen.add(v);
      assertEquals(0, Afforest.sampleVertex(i, 1));
    }
    assertTrue(seen.size() > Afforest.SAMPLES - 8, seen.size() + " distinct of " + Afforest.SAMPLES);
  }

  @Test
  void theMostFrequentLabelWinsAndTiesGoToTheSmallest() {
    int n = 4096;
    int[] labels = new int[n];
    for (int v = 0; v < n; v++) {
      labels[v] = v % 4 == 0 ? 7 : 9;
    }
    Afforest.Sampled sampled = Afforest.mostFrequent(labels);
    assertEquals(9, sampled.label());
    long nines = 0;
    for (int i = 0; i < Afforest.SAMPLES; i++) {
      nines += labels[Afforest.sampleVertex(i, n)] == 9 ? 1 : 0;
    }
    assertEquals(nines, sampled.samples());
    // Over 4 Mi vertices the samples are distinct vertices: half of them labelled 5, half 3, tie.
    int big = 1 << 22;
    int[] halves = new int[big];
    Set<Integer> distinct = new HashSet<>();
    for (int i = 0; i < Afforest.SAMPLES; i++) {
      int v = Afforest.sampleVertex(i, big);
      distinct.add(v);
      halves[v] = i % 2 == 0 ? 5 : 3;
    }
    assertEquals(Afforest.SAMPLES, distinct.size());
    assertEquals(new Afforest.Sampled(3, Afforest.SAMPLES / 2), Afforest.mostFrequent(halves));
    int[] everyOwn = new int[Afforest.SAMPLES * 64];
    Arrays.setAll(everyOwn, v -> v);
    assertTrue(Afforest.mostFrequent(everyOwn).samples() <= 2);
    assertEquals(new Afforest.Sampled(-1, 0), Afforest.mostFrequent(new int[0]));
  }
}

package dev.vyre.scan;

import dev.vyre.runtime.dfa.DfaStep;
import dev.vyre.runtime.dfa.Hit;
import java.util.ArrayList;
import java.util.List;

/**
 * Every occurrence of every pattern, overlapping ones included, by comparing each pattern at each
 * position. Quadratic and obviously correct: the oracle that {@link DfaStep} is tested against.
 */
public final class NaiveMatcher {

  private NaiveMatcher() {}

  /** All matches in {@code input}, as hits of {@code inputId}, sorted by start then pattern id. */
  public static List<Hit> findAll(PatternSet patterns, byte[] input, int inputId) {
    List<Hit> hits = new ArrayList<>();
    for (int start = 0; start < input.length; start++) {
      for (int id = 0; id < patterns.size(); id++) {
        if (matchesAt(patterns, id, input, start)) {
          hits.add(new Hit(inputId, start, id));
        }
      }
    }
    return hits;
  }

  private static boolean matchesAt(PatternSet patterns, int id, byte[] input, int start) {
    byte[] pattern = patterns.matchBytes(id);
    if (start + pattern.length > input.length) {
      return false;
    }
    for (int i = 0; i < pattern.length; i++) {
      int b = input[start + i] & 0xFF;
      if ((patterns.caseInsensitive() ? PatternSet.foldByte(b) : b) != (pattern[i] & 0xFF)) {
        return false;
      }
    }
    return true;
  }
}

package dev.vyre.scan;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.dfa.DfaTableLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Compiles a {@link PatternSet} into an Aho-Corasick automaton folded into a dense DFA: goto and
 * failure links are resolved at compile time, so a scan takes exactly one transition per byte;
 * each state's accept list already holds every pattern that ends there (its own and those
 * reachable through dictionary links), so overlapping matches are all reported.
 *
 * <p>Byte classes: two bytes behave identically in every state exactly when neither labels any
 * trie edge (a trie edge leads one level deeper, any other transition does not). So each distinct
 * pattern byte gets its own class and every other byte shares class 0; with ASCII case folding
 * 'A'..'Z' share the class of 'a'..'z'. This is the minimal lossless compression.
 *
 * <p>States are numbered breadth-first from the root (state 0, the start state), so a state's
 * failure target always has a smaller number and rows can be completed in one pass.
 */
public final class AhoCorasickCompiler {

  /** The largest table the compiler emits; it must fit a single resource and Java int indexing. */
  public static final long MAX_TABLE_BYTES = 256L << 20;

  private AhoCorasickCompiler() {}

  public static DfaTable compile(PatternSet patterns) {
    int[] classMap = classMap(patterns);
    int classCount = Arrays.stream(classMap).max().orElseThrow() + 1;
    Trie trie = Trie.build(patterns, classMap);
    int states = trie.size();
    long transitionWords = (long) states * classCount;
    checkSize(patterns, DfaTableLayout.totalWords(states, classCount, 0, patterns.size()), states, classCount);

    int[] next = new int[(int) transitionWords];
    int[] fail = new int[states];
    Arrays.fill(next, -1);
    for (int node = 1; node < states; node++) {
      next[trie.parent(node) * classCount + trie.edgeClass(node)] = node;
    }
    for (int state = 0; state < states; state++) {
      int row = state * classCount;
      int failRow = fail[state] * classCount;
      for (int c = 0; c < classCount; c++) {
        int child = next[row + c];
        if (child >= 0) {
          fail[child] = state == 0 ? 0 : next[failRow + c];
        } else {
          next[row + c] = state == 0 ? 0 : next[failRow + c];
        }
      }
    }

    Accepts accepts = Accepts.build(trie, fail, patterns.size());
    long totalWords = DfaTableLayout.totalWords(states, classCount, accepts.ids().length, patterns.size());
    checkSize(patterns, totalWords, states, classCount);
    return new DfaTable(MemorySegment.ofArray(encode(patterns, classMap, classCount, next, accepts, (int) totalWords)));
  }

  /** Class 0 holds the bytes no pattern uses (when there are any); pattern bytes follow in byte order. */
  private static int[] classMap(PatternSet patterns) {
    boolean[] used = new boolean[256];
    for (int id = 0; id < patterns.size(); id++) {
      for (byte b : patterns.matchBytes(id)) {
        used[b & 0xFF] = true;
      }
    }
    int[] classOfFolded = new int[256];
    int classCount = 0;
    // Class 0 is needed when some byte matches no pattern byte: with case folding an uppercase
    // letter stands for its lowercase one, without it every byte stands for itself.
    for (int b = 0; b < 256; b++) {
      if (!used[patterns.caseInsensitive() ? PatternSet.foldByte(b) : b]) {
        classCount = 1;
        break;
      }
    }
    for (int b = 0; b < 256; b++) {
      if (used[b]) {
        classOfFolded[b] = classCount++;
      }
    }
    int[] classMap = new int[256];
    for (int b = 0; b < 256; b++) {
      int folded = patterns.caseInsensitive() ? PatternSet.foldByte(b) : b;
      classMap[b] = used[folded] ? classOfFolded[folded] : 0;
    }
    return classMap;
  }

  private static void checkSize(PatternSet patterns, long totalWords, int states, int classCount) {
    if (totalWords * 4 > MAX_TABLE_BYTES) {
      throw InputException.of("patterns", patterns.size() + " patterns compile to " + states + " states x "
          + classCount + " byte classes (at least " + totalWords * 4 + " table bytes), above the "
          + MAX_TABLE_BYTES + "-byte table limit", "split the patterns into several sets and scan once per set");
    }
  }

  /**
   * Lays out the wire words; transitions become premultiplied rows carrying the accept flag. An
   * int[] is little-endian in memory on the hosts vyre runs on ({@link Words} checks that).
   */
  private static int[] encode(PatternSet patterns, int[] classMap, int classCount, int[] next, Accepts accepts,
      int totalWords) {
    int states = next.length / classCount;
    int offsetsBase = (int) DfaTableLayout.acceptOffsetsBase(states, classCount);
    int idsBase = (int) DfaTableLayout.acceptIdsBase(states, classCount);
    int lengthsBase = idsBase + accepts.ids().length;
    int[] words = new int[totalWords];
    words[DfaTableLayout.MAGIC_WORD] = DfaTableLayout.MAGIC;
    words[DfaTableLayout.VERSION_WORD] = DfaTableLayout.VERSION;
    words[DfaTableLayout.STATE_COUNT_WORD] = states;
    words[DfaTableLayout.CLASS_COUNT_WORD] = classCount;
    words[DfaTableLayout.START_STATE_WORD] = 0;
    words[DfaTableLayout.PATTERN_COUNT_WORD] = patterns.size();
    words[DfaTableLayout.MAX_PATTERN_LEN_WORD] = patterns.maxLength();
    words[DfaTableLayout.CLASS_MAP_BASE_WORD] = DfaTableLayout.CLASS_MAP_BASE;
    words[DfaTableLayout.TRANSITION_BASE_WORD] = DfaTableLayout.TRANSITION_BASE;
    words[DfaTableLayout.ACCEPT_OFFSETS_BASE_WORD] = offsetsBase;
    words[DfaTableLayout.ACCEPT_IDS_BASE_WORD] = idsBase;
    words[DfaTableLayout.PATTERN_LENGTHS_BASE_WORD] = lengthsBase;
    words[DfaTableLayout.TOTAL_WORDS_WORD] = totalWords;
    System.arraycopy(classMap, 0, words, DfaTableLayout.CLASS_MAP_BASE, 256);
    int[] offsets = accepts.offsets();
    for (int t = 0; t < next.length; t++) {
      int target = next[t];
      boolean accepting = offsets[target + 1] != offsets[target];
      words[DfaTableLayout.TRANSITION_BASE + t] = target * classCount | (accepting ? DfaTableLayout.ACCEPT_FLAG : 0);
    }
    System.arraycopy(offsets, 0, words, offsetsBase, offsets.length);
    System.arraycopy(accepts.ids(), 0, words, idsBase, accepts.ids().length);
    for (int id = 0; id < patterns.size(); id++) {
      words[lengthsBase + id] = patterns.length(id);
    }
    return words;
  }

  /** Per-state accept lists in CSR form: own patterns (ascending id), then the failure state's list. */
  private record Accepts(int[] offsets, int[] ids) {

    static Accepts build(Trie trie, int[] fail, int patternCount) {
      int states = trie.size();
      int[] ownStart = new int[states + 1];
      for (int id = 0; id < patternCount; id++) {
        ownStart[trie.endState(id) + 1]++;
      }
      for (int s = 0; s < states; s++) {
        ownStart[s + 1] += ownStart[s];
      }
      int[] own = new int[patternCount];
      int[] cursor = Arrays.copyOf(ownStart, states);
      for (int id = 0; id < patternCount; id++) {
        own[cursor[trie.endState(id)]++] = id;
      }
      int[] offsets = new int[states + 1];
      long total = 0;
      long[] count = new long[states];
      for (int s = 1; s < states; s++) {
        count[s] = ownStart[s + 1] - ownStart[s] + count[fail[s]];
        total += count[s];
        if (total * 4 > MAX_TABLE_BYTES) {
          throw InputException.of("patterns", "the accept lists of " + patternCount + " patterns need more than "
              + MAX_TABLE_BYTES + " table bytes (many patterns are suffixes of others)",
              "split the patterns into several sets and scan once per set");
        }
        offsets[s + 1] = (int) total;
      }
      int[] ids = new int[(int) total];
      for (int s = 1; s < states; s++) {
        int at = offsets[s];
        int ownCount = ownStart[s + 1] - ownStart[s];
        System.arraycopy(own, ownStart[s], ids, at, ownCount);
        System.arraycopy(ids, offsets[fail[s]], ids, at + ownCount, (int) count[fail[s]]);
      }
      return new Accepts(offsets, ids);
    }
  }
}

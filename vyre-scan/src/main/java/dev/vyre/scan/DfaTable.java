package dev.vyre.scan;

import dev.vyre.runtime.dfa.DfaTableLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;

/**
 * A compiled pattern automaton in the {@link DfaTableLayout} wire format, ready to be copied into
 * a DFA resource (host memory for the reference backend, device memory for CUDA). Checked against
 * the layout once, when made: its words are a private read-only copy, so a table kept and scanned
 * with again (a service's cache) is not checked again per scan.
 */
public final class DfaTable {

  private final MemorySegment words;
  private final int stateCount;
  private final int classCount;
  private final int patternCount;
  private final int maxPatternLength;
  private final int maxAcceptsPerState;

  DfaTable(MemorySegment words) {
    DfaTableLayout.validate(words, "DFA table");
    this.words = words.asReadOnly();
    this.stateCount = Words.get(words, DfaTableLayout.STATE_COUNT_WORD);
    this.classCount = Words.get(words, DfaTableLayout.CLASS_COUNT_WORD);
    this.patternCount = Words.get(words, DfaTableLayout.PATTERN_COUNT_WORD);
    this.maxPatternLength = Words.get(words, DfaTableLayout.MAX_PATTERN_LEN_WORD);
    int offsets = Words.get(words, DfaTableLayout.ACCEPT_OFFSETS_BASE_WORD);
    int most = 0;
    for (int state = 0; state < stateCount; state++) {
      most = Math.max(most, Words.get(words, offsets + state + 1) - Words.get(words, offsets + state));
    }
    this.maxAcceptsPerState = most;
  }

  /** The wire bytes, read-only. */
  public MemorySegment segment() {
    return words;
  }

  /** Copies the wire bytes to the start of {@code destination}, e.g. a registered resource. */
  public void copyTo(MemorySegment destination) {
    destination.copyFrom(words);
  }

  public long byteSize() {
    return words.byteSize();
  }

  public int stateCount() {
    return stateCount;
  }

  public int classCount() {
    return classCount;
  }

  public int patternCount() {
    return patternCount;
  }

  public int maxPatternLength() {
    return maxPatternLength;
  }

  /**
   * The longest accept list of any state: the most matches that can end at one byte (patterns that
   * are suffixes of each other, or duplicates, end together).
   */
  public int maxAcceptsPerState() {
    return maxAcceptsPerState;
  }

  /**
   * The most input bytes (a chunk with its pattern overlap) whose matches a chunk's u32 hit cursor
   * can always count: {@link ScanJob#MAX_HITS_PER_CHUNK} over {@link #maxAcceptsPerState}.
   */
  public long maxCountableBytes() {
    return maxAcceptsPerState == 0 ? Long.MAX_VALUE : ScanJob.MAX_HITS_PER_CHUNK / maxAcceptsPerState;
  }

  /** The state a scan of a whole input starts in. */
  public int startState() {
    return Words.get(words, DfaTableLayout.START_STATE_WORD);
  }

  /** One line for {@code --verbose} and reports: patterns, states, byte classes and table bytes. */
  public String describe() {
    return patternCount + " patterns, " + stateCount + " states, " + classCount + " byte classes, "
        + byteSize() + " table bytes";
  }

  @Override
  public String toString() {
    return "DfaTable[" + describe() + "]";
  }
}

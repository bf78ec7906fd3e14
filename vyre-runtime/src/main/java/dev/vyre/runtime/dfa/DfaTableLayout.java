package dev.vyre.runtime.dfa;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;

/**
 * Wire layout of a DFA table resource ("VDFA"): the bytes the scan's Aho-Corasick compiler writes, the
 * reference backend reads and the CUDA kernel reads after upload. Little-endian u32 words:
 *
 * <pre>
 * word 0..15            header (below); words 13..15 reserved, 0
 * class_map_base = 16   256 words: class id of each byte value, &lt; class_count
 * transition_base = 272 state_count * class_count words, row-major by state:
 *                       word (transition_base + state * class_count + class) =
 *                         bits 0..30  next_state * class_count (the next row, premultiplied)
 *                         bit 31      ACCEPT_FLAG: next_state's accept list is non-empty
 * accept_offsets_base   state_count + 1 words (CSR): accepts of state s are
 *                       accept_ids[offsets[s] .. offsets[s+1])
 * accept_ids_base       accept id words: pattern ids, each &lt; pattern_count
 * pattern_lengths_base  pattern_count words: byte length of each pattern, 1..max_pattern_len
 * total_words           = pattern_lengths_base + pattern_count
 * </pre>
 *
 * <p>The sections follow each other with no padding, so every base is a function of the counts;
 * {@link #validate} insists on exactly that layout. The premultiplied rows and the accept flag keep
 * a scanning loop at one table load per byte: {@code t = trans[row + class[b]]; row = t & ROW_MASK;
 * if (t < 0) report accepts of row / class_count}.
 */
public final class DfaTableLayout {

  public static final int MAGIC = 0x4146_4456;
  public static final int VERSION = 1;

  public static final int MAGIC_WORD = 0;
  public static final int VERSION_WORD = 1;
  public static final int STATE_COUNT_WORD = 2;
  public static final int CLASS_COUNT_WORD = 3;
  public static final int START_STATE_WORD = 4;
  public static final int PATTERN_COUNT_WORD = 5;
  public static final int MAX_PATTERN_LEN_WORD = 6;
  public static final int CLASS_MAP_BASE_WORD = 7;
  public static final int TRANSITION_BASE_WORD = 8;
  public static final int ACCEPT_OFFSETS_BASE_WORD = 9;
  public static final int ACCEPT_IDS_BASE_WORD = 10;
  public static final int PATTERN_LENGTHS_BASE_WORD = 11;
  public static final int TOTAL_WORDS_WORD = 12;
  public static final int HEADER_WORDS = 16;

  public static final int CLASS_MAP_BASE = HEADER_WORDS;
  public static final int CLASS_MAP_WORDS = 256;
  public static final int TRANSITION_BASE = CLASS_MAP_BASE + CLASS_MAP_WORDS;

  /** Set in a transition word when the state it leads to accepts at least one pattern. */
  public static final int ACCEPT_FLAG = 0x8000_0000;
  /** The premultiplied next row of a transition word. */
  public static final int ROW_MASK = 0x7FFF_FFFF;
  /** state_count * class_count must leave every premultiplied row below bit 31. */
  public static final long MAX_TRANSITION_WORDS = 1L << 31;

  private static final String FIX = "rebuild the table with AhoCorasickCompiler and upload its bytes unchanged";

  private DfaTableLayout() {}

  public static long acceptOffsetsBase(long stateCount, long classCount) {
    return TRANSITION_BASE + stateCount * classCount;
  }

  public static long acceptIdsBase(long stateCount, long classCount) {
    return acceptOffsetsBase(stateCount, classCount) + stateCount + 1;
  }

  public static long patternLengthsBase(long stateCount, long classCount, long acceptIdCount) {
    return acceptIdsBase(stateCount, classCount) + acceptIdCount;
  }

  public static long totalWords(long stateCount, long classCount, long acceptIdCount, long patternCount) {
    return patternLengthsBase(stateCount, classCount, acceptIdCount) + patternCount;
  }

  /** Byte offset of the transition word for {@code state} on byte class {@code classId}. */
  public static long transitionOffset(long classCount, long state, long classId) {
    return (TRANSITION_BASE + state * classCount + classId) << 2;
  }

  /**
   * Checks every word of a table: header, layout, class map, each transition, the accept CSR and
   * the pattern lengths. O(table size); run it once when a table is registered as a resource.
   *
   * @param buffer names the table in the error
   * @throws ProtocolException naming the buffer, the word and the byte length
   */
  public static void validate(MemorySegment table, String buffer) {
    long byteLen = table.byteSize();
    if (byteLen % 4 != 0) {
      throw ProtocolException.misalignedByteLength(buffer, byteLen, FIX);
    }
    if (byteLen < HEADER_WORDS * 4L) {
      throw ProtocolException.missingWord(buffer, HEADER_WORDS - 1, byteLen, FIX);
    }
    Check check = new Check(table, buffer, byteLen);
    int badHeaderWord = headerProblem(table);
    if (badHeaderWord >= 0) {
      check.fail(badHeaderWord, HEADER_RULES[badHeaderWord]);
    }
    long states = Unsigned.u32(Words.get(table, STATE_COUNT_WORD));
    long classes = Unsigned.u32(Words.get(table, CLASS_COUNT_WORD));
    long patterns = Unsigned.u32(Words.get(table, PATTERN_COUNT_WORD));
    long maxLen = Unsigned.u32(Words.get(table, MAX_PATTERN_LEN_WORD));
    long offsetsBase = acceptOffsetsBase(states, classes);
    long idsBase = acceptIdsBase(states, classes);
    long lengthsBase = Unsigned.u32(Words.get(table, PATTERN_LENGTHS_BASE_WORD));
    String classRule = "class id must be below class_count " + classes;
    for (int b = 0; b < CLASS_MAP_WORDS; b++) {
      check.require(CLASS_MAP_BASE + b, check.u32(CLASS_MAP_BASE + b) < classes, classRule);
    }
    long acceptIds = lengthsBase - idsBase;
    check.require(offsetsBase, check.u32(offsetsBase) == 0, "the first accept offset must be 0");
    String offsetRule = "accept offsets must not decrease and must end at the accept id count " + acceptIds;
    for (long s = 1; s <= states; s++) {
      long offset = check.u32(offsetsBase + s);
      boolean last = s == states;
      check.require(offsetsBase + s, offset >= check.u32(offsetsBase + s - 1) && (last ? offset == acceptIds
          : offset <= acceptIds), offsetRule);
    }
    String idRule = "accept id must be below pattern_count " + patterns;
    for (long i = 0; i < acceptIds; i++) {
      check.require(idsBase + i, check.u32(idsBase + i) < patterns, idRule);
    }
    String lengthRule = "pattern length must be 1..max_pattern_len " + maxLen;
    for (long p = 0; p < patterns; p++) {
      long length = check.u32(lengthsBase + p);
      check.require(lengthsBase + p, length >= 1 && length <= maxLen, lengthRule);
    }
    String rowRule = "transition row must be next_state * class_count with next_state below " + states;
    String flagRule = "ACCEPT_FLAG must be set exactly when the next state has accepts";
    for (long word = TRANSITION_BASE; word < offsetsBase; word++) {
      long row = check.u32(word) & ROW_MASK;
      check.require(word, row % classes == 0 && row / classes < states, rowRule);
      long next = offsetsBase + row / classes;
      check.require(word, (check.u32(next + 1) != check.u32(next)) == (check.u32(word) > ROW_MASK), flagRule);
    }
  }

  /** What each header word must satisfy, indexed by word; the message of a failed header check. */
  private static final String[] HEADER_RULES = {
      "is not the VDFA magic 0x41464456",
      "is not format version " + VERSION,
      "state_count must be at least 1",
      "class_count must be 1..256 with state_count * class_count at most 2^31",
      "start_state must be below state_count",
      "pattern_count must be at least 1",
      "max_pattern_len must be at least 1",
      "class_map_base must be " + CLASS_MAP_BASE,
      "transition_base must be " + TRANSITION_BASE,
      "accept_offsets_base must be transition_base + state_count * class_count",
      "accept_ids_base must be accept_offsets_base + state_count + 1",
      "pattern_lengths_base must not precede accept_ids_base",
      "total_words must be pattern_lengths_base + pattern_count and fit the buffer",
      "reserved header words must be 0",
      "reserved header words must be 0",
      "reserved header words must be 0",
  };

  /**
   * The first header word that breaks the layout, or -1 when the header is consistent with itself
   * and with the buffer's length. O(1) and allocation-free, so {@link DfaStep} runs it on every
   * call; the buffer must hold at least {@link #HEADER_WORDS} words.
   */
  public static int headerProblem(MemorySegment table) {
    long states = Unsigned.u32(Words.get(table, STATE_COUNT_WORD));
    long classes = Unsigned.u32(Words.get(table, CLASS_COUNT_WORD));
    long lengthsBase = Unsigned.u32(Words.get(table, PATTERN_LENGTHS_BASE_WORD));
    long total = Unsigned.u32(Words.get(table, TOTAL_WORDS_WORD));
    if (Words.get(table, MAGIC_WORD) != MAGIC) {
      return MAGIC_WORD;
    } else if (Words.get(table, VERSION_WORD) != VERSION) {
      return VERSION_WORD;
    } else if (states < 1) {
      return STATE_COUNT_WORD;
    } else if (classes < 1 || classes > 256 || states * classes > MAX_TRANSITION_WORDS) {
      return CLASS_COUNT_WORD;
    } else if (Unsigned.u32(Words.get(table, START_STATE_WORD)) >= states) {
      return START_STATE_WORD;
    } else if (Words.get(table, PATTERN_COUNT_WORD) == 0) {
      return PATTERN_COUNT_WORD;
    } else if (Words.get(table, MAX_PATTERN_LEN_WORD) == 0) {
      return MAX_PATTERN_LEN_WORD;
    } else if (Words.get(table, CLASS_MAP_BASE_WORD) != CLASS_MAP_BASE) {
      return CLASS_MAP_BASE_WORD;
    } else if (Words.get(table, TRANSITION_BASE_WORD) != TRANSITION_BASE) {
      return TRANSITION_BASE_WORD;
    } else if (Unsigned.u32(Words.get(table, ACCEPT_OFFSETS_BASE_WORD)) != acceptOffsetsBase(states, classes)) {
      return ACCEPT_OFFSETS_BASE_WORD;
    } else if (Unsigned.u32(Words.get(table, ACCEPT_IDS_BASE_WORD)) != acceptIdsBase(states, classes)) {
      return ACCEPT_IDS_BASE_WORD;
    } else if (lengthsBase < acceptIdsBase(states, classes)) {
      return PATTERN_LENGTHS_BASE_WORD;
    } else if (total != lengthsBase + Unsigned.u32(Words.get(table, PATTERN_COUNT_WORD))
        || total * 4 > table.byteSize()) {
      return TOTAL_WORDS_WORD;
    }
    for (int word = TOTAL_WORDS_WORD + 1; word < HEADER_WORDS; word++) {
      if (Words.get(table, word) != 0) {
        return word;
      }
    }
    return -1;
  }

  /** One validation pass over a table: reads words as u32 and raises the typed error. */
  private record Check(MemorySegment table, String buffer, long byteLen) {

    long u32(long word) {
      return Unsigned.u32(Words.get(table, word));
    }

    void require(long word, boolean ok, String problem) {
      if (!ok) {
        fail(word, problem);
      }
    }

    void fail(long word, String problem) {
      throw ProtocolException.invalidWord(buffer, word, u32(word), byteLen, problem, FIX);
    }
  }
}

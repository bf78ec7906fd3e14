package dev.vyre.graph.reference;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * A run's frontier state: two queues (a level's input and output) and three bitmaps (input, output,
 * and a spare that is cleared while a level runs, so that the next output starts empty without a
 * pass of its own). A pull level's output bitmap holds exactly the vertices it queued; a push
 * level's does too when its algorithm marks bits as it pushes ({@code marksOnPush}: components,
 * which test-and-set them to queue a vertex once), and is left empty otherwise (BFS, whose
 * compare-and-set on the depth already queues a vertex once): a pull level whose input was such an
 * output marks it from the queue first ({@link #markCurrent}), so that levels that only push pay no
 * atomic per vertex for a bitmap nobody reads. A push level never reads its input bitmap, so it
 * clears it as it goes; a pull level reads it, so it is left dirty and cleared, as the spare,
 * during the following level.
 *
 * <p>Changed only by whoever runs alone (a barrier action, or worker 0 in a fused phase).
 */
final class FrontierBuffers {

  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

  /** Bitmap words: 64 vertices each. */
  final int words;
  ChunkedQueue current;
  ChunkedQueue next;
  long[] currentBits;
  long[] nextBits;
  private long[] spareBits;
  private boolean spareDirty;
  private final boolean marksOnPush;
  /** Whether {@link #currentBits} holds the input queue's vertices; when not, it is empty. */
  boolean currentMarked;

  FrontierBuffers(int vertices, int workers, boolean marksOnPush) {
    this.marksOnPush = marksOnPush;
    words = (int) ((vertices + 63L) >>> 6);
    current = new ChunkedQueue(vertices, workers);
    next = new ChunkedQueue(vertices, workers);
    currentBits = new long[words];
    nextBits = new long[words];
    spareBits = new long[words];
  }

  /** Whether {@code v}'s bit is set. */
  static boolean testBit(long[] bits, int v) {
    return (bits[v >>> 6] & (1L << v)) != 0;
  }

  /** Sets {@code v}'s bit atomically; true when this call set it. */
  static boolean setBit(long[] bits, int v) {
    long bit = 1L << v;
    return ((long) LONGS.getAndBitwiseOr(bits, v >>> 6, bit) & bit) == 0;
  }

  /** Part {@code part} of {@code parts}' share of a push level's clearing: the input bitmap, which it does not read, and the spare. */
  void clearForPush(int part, int parts) {
    if (currentMarked) {
      int size = current.size();
      long[] bits = currentBits;
      if (size < words) {
        // Fewer queued vertices than words: clear the words they are in.
        int[] items = current.items;
        for (int i = (int) Traversal.slice(size, part, parts), end = (int) Traversal.slice(size, part + 1, parts);
            i < end; i++) {
          bits[items[i] >>> 6] = 0;
        }
      } else {
        clearWords(bits, part, parts);
      }
    }
    clearSpare(part, parts);
  }

  /** Part {@code part} of {@code parts}' share of marking the input queue's vertices in {@link #currentBits}. */
  void markCurrent(int part, int parts) {
    int[] items = current.items;
    long[] bits = currentBits;
    int size = current.size();
    for (int i = (int) Traversal.slice(size, part, parts), end = (int) Traversal.slice(size, part + 1, parts); i < end;
        i++) {
      setBit(bits, items[i]);
    }
  }

  /** Part {@code part} of {@code parts}' share of clearing the spare, when the level before left it dirty. */
  void clearSpare(int part, int parts) {
    if (spareDirty) {
      clearWords(spareBits, part, parts);
    }
  }

  private void clearWords(long[] bits, int part, int parts) {
    Arrays.fill(bits, (int) Traversal.slice(words, part, parts), (int) Traversal.slice(words, part + 1, parts), 0L);
  }

  /**
   * Makes the level's output its successor's input and empties the new output queue.
   *
   * @param pulled whether the level read its input bitmap (and so left it set)
   */
  void advance(boolean pulled) {
    ChunkedQueue queue = current;
    current = next;
    next = queue;
    next.reset();
    long[] bits = currentBits;
    currentBits = nextBits;
    nextBits = spareBits;
    spareBits = bits;
    spareDirty = pulled;
    currentMarked = pulled || marksOnPush;
    assert isClear(nextBits) : "the new output bitmap is not clear";
    assert currentMarked ? isQueue(currentBits, current) : isClear(currentBits)
        : "the new input bitmap is not as marked";
  }

  /** With assertions on (tests): whether no bit is set. */
  private static boolean isClear(long[] bits) {
    for (long word : bits) {
      if (word != 0) {
        return false;
      }
    }
    return true;
  }

  /** With assertions on (tests): whether the set bits are exactly the queued vertices. */
  private static boolean isQueue(long[] bits, ChunkedQueue queue) {
    long set = 0;
    for (long word : bits) {
      set += Long.bitCount(word);
    }
    for (int i = 0; i < queue.size(); i++) {
      if (!testBit(bits, queue.items[i])) {
        return false;
      }
    }
    return set == queue.size();
  }
}

package dev.vyre.observe.replay;

import java.util.Arrays;

/**
 * BLAKE3 (default hash mode, 32-byte output), for the replay log's output digest: the JDK has no
 * BLAKE3, and one function is not worth a cryptography library in every jar. A direct transcription
 * of the specification's reference implementation (1 KiB chunks of 64-byte blocks, seven rounds,
 * a binary tree of chaining values merged as chunks complete), checked against the official test
 * vectors.
 */
public final class Blake3 {

  public static final int OUT_BYTES = 32;

  private static final int BLOCK_BYTES = 64;
  private static final int CHUNK_BYTES = 1024;
  private static final int CHUNK_START = 1;
  private static final int CHUNK_END = 1 << 1;
  private static final int PARENT = 1 << 2;
  private static final int ROOT = 1 << 3;
  /** Enough chaining values for 2^54 chunks, the most a u64 byte count can hold. */
  private static final int MAX_TREE_DEPTH = 54;
  private static final int[] IV = {
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
  };
  private static final int[] MSG_PERMUTATION = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};

  private Blake3() {}

  /** The 32-byte BLAKE3 hash of {@code input}. */
  public static byte[] hash(byte[] input) {
    return hash(input, 0, input.length);
  }

  /** The 32-byte BLAKE3 hash of {@code length} bytes of {@code input} from {@code offset}. */
  public static byte[] hash(byte[] input, int offset, int length) {
    return new Hasher().update(input, offset, length).finish();
  }

  /** One hash in progress: the open chunk and the stack of completed subtrees' chaining values. */
  private static final class Hasher {
    private final int[][] cvStack = new int[MAX_TREE_DEPTH][];
    private int cvStackLength;
    private int[] chunkCv = IV.clone();
    private long chunkCounter;
    private final byte[] block = new byte[BLOCK_BYTES];
    private int blockLength;
    private int blocksCompressed;

    Hasher update(byte[] input, int offset, int length) {
      int at = offset;
      int end = offset + length;
      while (at < end) {
        if (chunkLength() == CHUNK_BYTES) {
          // The chunk is complete and more input follows, so it is not the root: fold it into the tree.
          addChunkChainingValue(chainingValue(chunkOutput()), chunkCounter + 1);
          chunkCv = IV.clone();
          chunkCounter++;
          blocksCompressed = 0;
          blockLength = 0;
        }
        // A full block is compressed only once more input arrives: the last block takes CHUNK_END.
        if (blockLength == BLOCK_BYTES) {
          chunkCv = first8(compress(chunkCv, words(block), chunkCounter, BLOCK_BYTES, chunkFlags()));
          blocksCompressed++;
          blockLength = 0;
        }
        int take = Math.min(BLOCK_BYTES - blockLength, end - at);
        System.arraycopy(input, at, block, blockLength, take);
        blockLength += take;
        at += take;
      }
      return this;
    }

    byte[] finish() {
      Output output = chunkOutput();
      for (int i = cvStackLength - 1; i >= 0; i--) {
        output = parentOutput(cvStack[i], chainingValue(output));
      }
      int[] root = compress(output.cv, output.blockWords, 0, output.blockLength, output.flags | ROOT);
      byte[] hash = new byte[OUT_BYTES];
      for (int i = 0; i < OUT_BYTES / 4; i++) {
        int word = root[i];
        hash[4 * i] = (byte) word;
        hash[4 * i + 1] = (byte) (word >>> 8);
        hash[4 * i + 2] = (byte) (word >>> 16);
        hash[4 * i + 3] = (byte) (word >>> 24);
      }
      return hash;
    }

    private int chunkLength() {
      return BLOCK_BYTES * blocksCompressed + blockLength;
    }

    private int chunkFlags() {
      return blocksCompressed == 0 ? CHUNK_START : 0;
    }

    private Output chunkOutput() {
      byte[] last = Arrays.copyOf(block, BLOCK_BYTES);
      Arrays.fill(last, blockLength, BLOCK_BYTES, (byte) 0);
      return new Output(chunkCv, words(last), chunkCounter, blockLength, chunkFlags() | CHUNK_END);
    }

    /** Merges completed subtrees: one merge per trailing zero bit of the new total chunk count. */
    private void addChunkChainingValue(int[] cv, long totalChunks) {
      int[] merged = cv;
      long total = totalChunks;
      while ((total & 1) == 0) {
        merged = chainingValue(parentOutput(cvStack[--cvStackLength], merged));
        total >>>= 1;
      }
      cvStack[cvStackLength++] = merged;
    }
  }

  /** The inputs of a compression whose output is not used yet (it may become the root). */
  private record Output(int[] cv, int[] blockWords, long counter, int blockLength, int flags) {}

  private static int[] chainingValue(Output output) {
    return first8(compress(output.cv, output.blockWords, output.counter, output.blockLength, output.flags));
  }

  private static Output parentOutput(int[] left, int[] right) {
    int[] blockWords = new int[16];
    System.arraycopy(left, 0, blockWords, 0, 8);
    System.arraycopy(right, 0, blockWords, 8, 8);
    return new Output(IV, blockWords, 0, BLOCK_BYTES, PARENT);
  }

  private static int[] first8(int[] state) {
    return Arrays.copyOf(state, 8);
  }

  private static int[] words(byte[] block) {
    int[] words = new int[16];
    for (int i = 0; i < 16; i++) {
      words[i] = (block[4 * i] & 0xFF) | (block[4 * i + 1] & 0xFF) << 8 | (block[4 * i + 2] & 0xFF) << 16 | (block[4 * i + 3] & 0xFF) << 24;
    }
    return words;
  }

  /** The compression function: the 16-word state after seven rounds, fed forward. */
  private static int[] compress(int[] cv, int[] blockWords, long counter, int blockLength, int flags) {
    int[] state = {
      cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7],
      IV[0], IV[1], IV[2], IV[3], (int) counter, (int) (counter >>> 32), blockLength, flags,
    };
    int[] m = blockWords.clone();
    for (int round = 0; round < 7; round++) {
      g(state, 0, 4, 8, 12, m[0], m[1]);
      g(state, 1, 5, 9, 13, m[2], m[3]);
      g(state, 2, 6, 10, 14, m[4], m[5]);
      g(state, 3, 7, 11, 15, m[6], m[7]);
      g(state, 0, 5, 10, 15, m[8], m[9]);
      g(state, 1, 6, 11, 12, m[10], m[11]);
      g(state, 2, 7, 8, 13, m[12], m[13]);
      g(state, 3, 4, 9, 14, m[14], m[15]);
      if (round < 6) {
        int[] permuted = new int[16];
        for (int i = 0; i < 16; i++) {
          permuted[i] = m[MSG_PERMUTATION[i]];
        }
        m = permuted;
      }
    }
    for (int i = 0; i < 8; i++) {
      state[i] ^= state[i + 8];
      state[i + 8] ^= cv[i];
    }
    return state;
  }

  private static void g(int[] state, int a, int b, int c, int d, int mx, int my) {
    state[a] = state[a] + state[b] + mx;
    state[d] = Integer.rotateRight(state[d] ^ state[a], 16);
    state[c] = state[c] + state[d];
    state[b] = Integer.rotateRight(state[b] ^ state[c], 12);
    state[a] = state[a] + state[b] + my;
    state[d] = Integer.rotateRight(state[d] ^ state[a], 8);
    state[c] = state[c] + state[d];
    state[b] = Integer.rotateRight(state[b] ^ state[c], 7);
  }
}

package dev.vyre.cli;

import dev.vyre.scan.PatternSet;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The bytes around each match that {@code vyre scan -n} and {@code -w} need, read from the file on
 * the host after the scan found its matches: the line a match starts on (newlines before it, plus
 * one) and whether it stands as a whole word. The scan itself runs on the GPU's copy of the bytes,
 * which is gone by the time a file's matches are known, so a file with matches is read a second
 * time, once, front to back up to its last match that counts (only files with matches: the rest
 * cost nothing). The matches come chunk by chunk in offset order ({@code ScanSink}), so a {@link
 * Reading} keeps its place and line count between them: nothing is held per match.
 *
 * <p>Word characters are the ASCII letters, digits and {@code _}, as grep's in the C locale; a byte
 * of 0x80 or above is not one (grep in a UTF-8 locale also counts non-ASCII letters).
 */
final class HitContext {

  private static final int BLOCK_BYTES = 1 << 16;

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long LOW_SEVEN_BITS = 0x7F7F_7F7F_7F7F_7F7FL;
  private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
  private static final long NEWLINES = 0x0A0A_0A0A_0A0A_0A0AL;

  private final int[] lengths;
  private final boolean lines;
  private final boolean words;
  /** One block buffer for every file: files are read one at a time (ScanOutput's lock). */
  private final ByteBuffer block = ByteBuffer.allocate(BLOCK_BYTES);

  /**
   * @param lines find each match's line number
   * @param words keep only the matches that stand as whole words
   */
  HitContext(PatternSet patterns, boolean lines, boolean words) {
    this.lengths = new int[patterns.size()];
    for (int id = 0; id < lengths.length; id++) {
      lengths[id] = patterns.length(id);
    }
    this.lines = lines;
    this.words = words;
  }

  boolean words() {
    return words;
  }

  boolean lines() {
    return lines;
  }

  /** Starts reading {@code file} again for its matches, which must then come in offset order. */
  Reading open(Path file) throws IOException {
    return new Reading(new Bytes(file, block));
  }

  /** One file read again, match after match in offset order, keeping its place and line count. */
  final class Reading implements AutoCloseable {
    private final Bytes bytes;
    private long line = 1;
    private long countedTo;

    private Reading(Bytes bytes) {
      this.bytes = bytes;
    }

    /**
     * The 1-based line the match starts on (0 without line numbers), or -1 when only whole words
     * count and it is not one. Matches past the end of a file that shrank since it was scanned are
     * at its end.
     *
     * @throws IOException when the file cannot be read again
     */
    long locate(long start, int patternId) throws IOException {
      if (words && (isWordByte(bytes.at(start - 1)) || isWordByte(bytes.at(start + lengths[patternId])))) {
        return -1;
      }
      if (!lines) {
        return 0;
      }
      line += bytes.newlines(countedTo, start);
      countedTo = start;
      return line;
    }

    @Override
    public void close() throws IOException {
      bytes.close();
    }
  }

  /** grep's word constituents in the C locale: [A-Za-z0-9_]. -1 (before the start, past the end) is not one. */
  static boolean isWordByte(int b) {
    return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_';
  }

  /** How many bytes of {@code array[begin, end)} are '\n'; eight at a time (the CLI runs it cold, once). */
  static long newlines(byte[] array, int begin, int end) {
    long count = 0;
    int i = begin;
    for (; i + Long.BYTES <= end; i += Long.BYTES) {
      // A byte of x is zero where the byte was '\n'; (x & 7F..) + 7F.. | x sets the high bit of every other byte.
      long x = (long) LONGS.get(array, i) ^ NEWLINES;
      count += Long.BYTES - Long.bitCount(((x & LOW_SEVEN_BITS) + LOW_SEVEN_BITS | x) & HIGH_BITS);
    }
    for (; i < end; i++) {
      if (array[i] == '\n') {
        count++;
      }
    }
    return count;
  }

  /** A file's bytes one block at a time, loaded where asked (matches come in offset order, so mostly forward). */
  private static final class Bytes implements AutoCloseable {
    private final FileChannel channel;
    private final ByteBuffer block;
    private final byte[] array;
    private long blockStart = -1;
    private int blockLength;

    Bytes(Path file, ByteBuffer block) throws IOException {
      this.channel = FileChannel.open(file, StandardOpenOption.READ);
      this.block = block;
      this.array = block.array();
    }

    /** The byte at {@code position}, 0..255; -1 before the start or past the end. */
    int at(long position) throws IOException {
      if (position < 0 || !load(position)) {
        return -1;
      }
      return array[(int) (position - blockStart)] & 0xFF;
    }

    /** How many newlines lie in [from, to), counting only bytes the file still has. */
    long newlines(long from, long to) throws IOException {
      long count = 0;
      long position = from;
      while (position < to && load(position)) {
        int begin = (int) (position - blockStart);
        int end = (int) Math.min(blockLength, to - blockStart);
        count += HitContext.newlines(array, begin, end);
        position = blockStart + end;
      }
      return count;
    }

    /** Makes the block holding {@code position} current; false past the end of the file. */
    private boolean load(long position) throws IOException {
      if (position >= blockStart && position < blockStart + blockLength) {
        return true;
      }
      long start = position - position % BLOCK_BYTES;
      block.clear();
      while (block.hasRemaining() && channel.read(block, start + block.position()) >= 0) {
        // Reads until the block is full or the file ends.
      }
      blockStart = start;
      blockLength = block.position();
      return position < blockStart + blockLength;
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}

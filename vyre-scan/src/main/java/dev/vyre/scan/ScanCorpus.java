package dev.vyre.scan;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A deterministic scan corpus: English-like text (lowercase words drawn with English letter
 * frequencies, spaces, lines of about 72 bytes) with literals planted among the words. The same
 * seed and size give the same bytes, whether generated into memory or written to a file, so
 * {@code vyre bench scan}, the JMH benchmark and {@code grep -F} all see the same data
 * ({@code vyre bench scan --dir DIR} keeps the corpus and its patterns file).
 *
 * <p>Literals are 8..16 letters from the same distribution as the text, so they share prefixes
 * with ordinary words (the automaton leaves its root often) and give grep no rare byte to skip on.
 */
public final class ScanCorpus {

  /** The largest block a corpus written by {@link #writeRepeating} repeats. */
  public static final long REPEATED_BLOCK_BYTES = 64L << 20;
  public static final int DEFAULT_LITERALS = 100;
  public static final long DEFAULT_SEED = 0x5CA7_C0DEL;
  /** About one word in this many is a planted literal. */
  public static final int PLANT_EVERY_WORDS = 100;

  private static final String LETTERS = "etaoinshrdlcumwfgypbvkjxqz";
  private static final int[] PER_MILLE = {127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28, 24, 24, 22, 20, 20,
      19, 15, 10, 8, 2, 2, 1, 1};
  private static final byte[] LETTER_BY_MILLE = letterTable();
  private static final int LINE_BYTES = 72;

  private final SplittableRandom random;
  private final List<byte[]> literals;
  private byte[] pending = new byte[0];
  private int pendingAt;
  private int column;

  private ScanCorpus(List<String> literals, long seed) {
    this.random = new SplittableRandom(seed);
    this.literals = literals.stream().map(l -> l.getBytes(StandardCharsets.US_ASCII)).toList();
  }

  /** {@code count} distinct literals of 8..16 letters. */
  public static List<String> literals(int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x11E7_E4A1L);
    Set<String> distinct = new LinkedHashSet<>();
    while (distinct.size() < count) {
      distinct.add(new String(word(random, 8 + random.nextInt(9)), StandardCharsets.US_ASCII));
    }
    return List.copyOf(distinct);
  }

  /** The {@code count} letters the generated text holds most of, most common first, as one-byte literals. */
  public static List<String> commonLetters(int count) {
    return LETTERS.chars().limit(count).mapToObj(Character::toString).toList();
  }

  /** Fills {@code target} with the first {@code target.byteSize()} bytes of the corpus. */
  public static void fill(MemorySegment target, List<String> literals, long seed) {
    ScanCorpus corpus = new ScanCorpus(literals, seed);
    byte[] block = new byte[1 << 20];
    for (long at = 0; at < target.byteSize(); at += block.length) {
      int length = (int) Math.min(block.length, target.byteSize() - at);
      corpus.next(block, length);
      MemorySegment.copy(MemorySegment.ofArray(block), 0, target, at, length);
    }
  }

  /** Writes the first {@code size} bytes of the corpus to {@code file}. */
  public static void write(Path file, long size, List<String> literals, long seed) throws IOException {
    ScanCorpus corpus = new ScanCorpus(literals, seed);
    byte[] block = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(file)) {
      for (long at = 0; at < size; at += block.length) {
        int length = (int) Math.min(block.length, size - at);
        corpus.next(block, length);
        out.write(block, 0, length);
      }
    }
  }

  /**
   * The first bytes of the corpus, at most {@link #REPEATED_BLOCK_BYTES} of the {@code size} a corpus
   * written by {@link #writeRepeating} will have.
   */
  public static MemorySegment repeatedBlock(long size, List<String> literals, long seed) {
    MemorySegment block = MemorySegment.ofArray(new byte[(int) Math.min(size, REPEATED_BLOCK_BYTES)]);
    fill(block, literals, seed);
    return block;
  }

  /**
   * Writes {@code size} bytes to {@code file}: {@code block} ({@link #repeatedBlock}) again and again.
   * The generator makes tens of MB/s, too slow for corpora of gigabytes, and a DFA scans repeated text
   * as fast as fresh text with the same match density.
   */
  public static void writeRepeating(Path file, long size, MemorySegment block) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE)) {
      for (long at = 0; at < size; ) {
        ByteBuffer part = block.asSlice(0, Math.min(block.byteSize(), size - at)).asByteBuffer();
        while (part.hasRemaining()) {
          at += channel.write(part);
        }
      }
    }
  }

  /** Writes the literals one per line, the form {@code grep -F -f} and {@code vyre scan -f} read. */
  public static void writePatterns(Path file, List<String> literals) throws IOException {
    Files.write(file, literals);
  }

  private void next(byte[] block, int length) {
    for (int at = 0; at < length; ) {
      if (pendingAt == pending.length) {
        refill();
      }
      int n = Math.min(length - at, pending.length - pendingAt);
      System.arraycopy(pending, pendingAt, block, at, n);
      pendingAt += n;
      at += n;
    }
  }

  /** The next word and its separator: a space, or a newline once the line is long enough. */
  private void refill() {
    byte[] word = random.nextInt(PLANT_EVERY_WORDS) == 0
        ? literals.get(random.nextInt(literals.size()))
        : word(random, 1 + random.nextInt(10));
    column += word.length + 1;
    pending = new byte[word.length + 1];
    System.arraycopy(word, 0, pending, 0, word.length);
    pending[word.length] = (byte) (column > LINE_BYTES ? '\n' : ' ');
    column = column > LINE_BYTES ? 0 : column;
    pendingAt = 0;
  }

  private static byte[] word(SplittableRandom random, int length) {
    byte[] word = new byte[length];
    for (int i = 0; i < length; i++) {
      word[i] = LETTER_BY_MILLE[random.nextInt(LETTER_BY_MILLE.length)];
    }
    return word;
  }

  private static byte[] letterTable() {
    int total = 0;
    for (int weight : PER_MILLE) {
      total += weight;
    }
    byte[] table = new byte[total];
    int at = 0;
    for (int letter = 0; letter < PER_MILLE.length; letter++) {
      for (int i = 0; i < PER_MILLE[letter]; i++) {
        table[at++] = (byte) LETTERS.charAt(letter);
      }
    }
    return table;
  }
}

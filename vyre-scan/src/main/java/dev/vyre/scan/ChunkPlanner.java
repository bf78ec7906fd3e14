package dev.vyre.scan;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits the bytes {@code [from, to)} of an input into chunks of {@code chunkBytes} so that
 * DFA_STEP can scan them independently, each from the start state, and still report every match
 * exactly once.
 *
 * <p>Chunk {@code i} owns the match ends in {@code (from + i*C, min(from + (i+1)*C, to)]}. It is
 * read from {@code overlap = longest pattern - 1} bytes before its first owned byte (clamped at 0),
 * so any match ending in it starts inside the read; {@code report_from} is the number of those
 * early bytes, so matches ending in them, which the previous chunk owns, are not reported again.
 * The first chunk of a range that starts past 0 reads its overlap too: a range owns the matches
 * that end in it, so ranges that tile a file report each of its matches once, as one plan of the
 * whole file does.
 *
 * @param from the first byte whose match ends the plan owns; 0 for a whole input
 * @param to the end of the owned bytes (exclusive): the input's length for a whole input
 * @param overlap bytes each chunk starts early: the longest pattern's length - 1
 */
public record ChunkPlanner(long from, long to, long chunkBytes, int overlap) {

  /**
   * One read and DFA_STEP: read {@code readLength} bytes at {@code readOffset}, scan them with
   * base offset {@code readOffset} and {@code report_from = reportFrom}.
   */
  public record Chunk(long index, long readOffset, long readLength, long reportFrom) {}

  public ChunkPlanner {
    if (from < 0 || to < from) {
      throw InputException.of("chunk plan", "the range " + from + ".." + to + " is not a range of bytes",
          "pass a range with 0 <= from <= to");
    }
    if (chunkBytes < 1 || overlap < 0 || !Unsigned.fitsU32(chunkBytes + overlap)) {
      throw InputException.of("chunk plan", "input length " + (to - from) + ", chunk size " + chunkBytes
          + " and overlap " + overlap + " do not form a plan (each read must be 1 byte to 4 GiB)",
          "use a chunk size between 1 byte and 4 GiB minus the longest pattern");
    }
  }

  /** The plan of a whole input of {@code inputLength} bytes. */
  public ChunkPlanner(long inputLength, long chunkBytes, int overlap) {
    this(0, inputLength, chunkBytes, overlap);
  }

  /** The plan for scanning {@code inputLength} bytes with patterns at most {@code maxPatternLength} long. */
  public static ChunkPlanner of(long inputLength, long chunkBytes, int maxPatternLength) {
    return new ChunkPlanner(inputLength, chunkBytes, Math.max(0, maxPatternLength - 1));
  }

  public long chunkCount() {
    return Math.ceilDiv(to - from, chunkBytes);
  }

  /** Largest {@link Chunk#readLength()}: the size a chunk buffer needs. */
  public long maxReadBytes() {
    return chunkBytes + overlap;
  }

  public Chunk chunk(long index) {
    long owned = from + index * chunkBytes;
    long readOffset = Math.max(0, owned - overlap);
    long end = Math.min(to, owned + chunkBytes);
    return new Chunk(index, readOffset, end - readOffset, owned - readOffset);
  }

  public List<Chunk> chunks() {
    List<Chunk> chunks = new ArrayList<>();
    for (long i = 0; i < chunkCount(); i++) {
      chunks.add(chunk(i));
    }
    return chunks;
  }
}

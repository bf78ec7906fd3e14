package dev.vyre.scan;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an input of {@code inputLength} bytes into chunks of {@code chunkBytes} so that DFA_STEP
 * can scan them independently, each from the start state, and still report every match exactly
 * once.
 *
 * <p>Chunk {@code i} owns the match ends in {@code (i*C, min((i+1)*C, L)]}. It is read from {@code
 * overlap = longest pattern - 1} bytes before its first owned byte (clamped at 0), so any match
 * ending in it starts inside the read; {@code report_from} is the number of those early bytes, so
 * matches ending in them, which the previous chunk owns, are not reported again.
 *
 * @param overlap bytes each chunk after the first starts early: the longest pattern's length - 1
 */
public record ChunkPlanner(long inputLength, long chunkBytes, int overlap) {

  /**
   * One read and DFA_STEP: read {@code readLength} bytes at {@code readOffset}, scan them with
   * base offset {@code readOffset} and {@code report_from = reportFrom}.
   */
  public record Chunk(long index, long readOffset, long readLength, long reportFrom) {}

  public ChunkPlanner {
    if (inputLength < 0 || chunkBytes < 1 || overlap < 0 || !Unsigned.fitsU32(chunkBytes + overlap)) {
      throw InputException.of("chunk plan", "input length " + inputLength + ", chunk size " + chunkBytes
          + " and overlap " + overlap + " do not form a plan (each read must be 1 byte to 4 GiB)",
          "use a chunk size between 1 byte and 4 GiB minus the longest pattern");
    }
  }

  /** The plan for scanning {@code inputLength} bytes with patterns at most {@code maxPatternLength} long. */
  public static ChunkPlanner of(long inputLength, long chunkBytes, int maxPatternLength) {
    return new ChunkPlanner(inputLength, chunkBytes, Math.max(0, maxPatternLength - 1));
  }

  public long chunkCount() {
    return Math.ceilDiv(inputLength, chunkBytes);
  }

  /** Largest {@link Chunk#readLength()}: the size a chunk buffer needs. */
  public long maxReadBytes() {
    return chunkBytes + overlap;
  }

  public Chunk chunk(long index) {
    long owned = index * chunkBytes;
    long readOffset = Math.max(0, owned - overlap);
    long end = Math.min(inputLength, owned + chunkBytes);
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

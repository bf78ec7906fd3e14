package dev.vyre.io;

import dev.vyre.driver.error.PipelineException;

/**
 * A finished read: buffer {@code bufferIndex} now holds {@code bytesRead} bytes (fewer than asked
 * only at end of file), or the read failed with {@code error}. {@code userData} is the value the
 * caller passed to {@link ChunkReader#submit}, which pairs the completion with its request.
 */
public record ReadCompletion(long userData, int bufferIndex, int bytesRead, PipelineException error) {

  public boolean failed() {
    return error != null;
  }
}

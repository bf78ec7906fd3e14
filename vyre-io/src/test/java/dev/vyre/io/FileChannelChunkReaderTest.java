package dev.vyre.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FileChannelChunkReaderTest extends ChunkReaderContract {

  @Override
  protected ChunkReader open(BufferPool pool) {
    return new FileChannelChunkReader(pool);
  }

  @Test
  void namesItselfAndWhyItIsUsed() {
    assertEquals("FileChannel", new FileChannelChunkReader(pool(1)).backend());
    assertEquals("FileChannel (io_uring unavailable: EPERM)",
        new FileChannelChunkReader(pool(1), "io_uring unavailable: EPERM").backend());
  }
}

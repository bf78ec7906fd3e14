package dev.vyre.io.uring;

import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;

/** The same contract and io_uring tests with the pool's buffers not registered: plain READs. */
class UnregisteredIoUringChunkReaderTest extends IoUringChunkReaderTest {

  @Override
  protected ChunkReader open(BufferPool pool) {
    return IoUringChunkReader.unregistered(pool);
  }
}

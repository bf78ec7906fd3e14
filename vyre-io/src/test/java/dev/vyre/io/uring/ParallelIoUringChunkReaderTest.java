package dev.vyre.io.uring;

import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;

/** The same contract and io_uring tests with every read handed to io-wq workers (IOSQE_ASYNC). */
class ParallelIoUringChunkReaderTest extends IoUringChunkReaderTest {

  @Override
  protected ChunkReader open(BufferPool pool) {
    return new IoUringChunkReader(pool, true);
  }
}

package dev.vyre.runtime.io.uring;

import dev.vyre.runtime.io.BufferPool;
import dev.vyre.runtime.io.ChunkReader;

/** The same contract and io_uring tests with every read handed to io-wq workers (IOSQE_ASYNC). */
class ParallelIoUringChunkReaderTest extends IoUringChunkReaderTest {

  @Override
  protected ChunkReader open(BufferPool pool) {
    return new IoUringChunkReader(pool, true);
  }
}

package dev.vyre.io.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;
import dev.vyre.io.ReadCompletion;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The same contract and io_uring tests with reads handed to io-wq workers (IOSQE_ASYNC). */
class ParallelIoUringChunkReaderTest extends IoUringChunkReaderTest {

  @Override
  protected ChunkReader open(BufferPool pool) {
    return new IoUringChunkReader(pool, true);
  }

  @Test
  void aSmallReadOfCachedPagesCompletesInlineWithoutAWorker() throws IOException {
    // Below ASYNC_MIN_BYTES; the file was just written, so its pages are cached and the read is done inside the submit.
    Path small = file(4096);
    try (ChunkReader reader = open(pool(1))) {
      reader.submit(reader.openFile(small), 0, 4096, 0, 7);
      ReadCompletion read = reader.poll();
      assertNotNull(read, "the small read was not done when its submit returned");
      assertEquals(4096, read.bytesRead());
      assertEquals(7, read.userData());
    }
  }
}

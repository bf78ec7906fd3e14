package dev.vyre.runtime.io.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.io.BufferPool;
import dev.vyre.runtime.io.ChunkReader;
import dev.vyre.runtime.io.ChunkReaderContract;
import dev.vyre.runtime.io.IoBackends;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IoUringChunkReaderTest extends ChunkReaderContract {

  @BeforeAll
  static void requireIoUring() {
    if (!IoBackends.availability().available()) {
      System.out.println("IoUringChunkReaderTest skipped: " + IoBackends.availability().detail());
    }
    Assumptions.assumeTrue(IoBackends.availability().available(), IoBackends.availability().detail());
  }

  @Override
  protected ChunkReader open(BufferPool pool) {
    return new IoUringChunkReader(pool);
  }

  @Test
  void aMissingFileReportsOpenWithEnoent() {
    try (ChunkReader reader = open(pool(1))) {
      PipelineException e = assertThrows(PipelineException.class, () -> reader.openFile(Path.of("/nonexistent/x")));
      assertEquals("IoUringSyscall", e.variant());
      assertEquals((long) Errno.ENOENT, e.fields().get("errno"));
      assertTrue(e.getMessage().startsWith("io_uring open(/nonexistent/x) failed with errno 2. Fix: ENOENT: "),
          e.getMessage());
    }
  }

  @Test
  void aFileWithAReadInFlightCannotBeClosed() throws IOException {
    Path path = file(100);
    try (ChunkReader reader = open(pool(1))) {
      int file = reader.openFile(path);
      reader.submit(file, 0, 100, 0, 0);
      PipelineException e = assertThrows(PipelineException.class, () -> reader.closeFile(file));
      assertTrue(e.getMessage().contains("file handle " + file + " has 1 read(s) in flight"), e.getMessage());
      assertEquals(100, reader.await().bytesRead());
      reader.closeFile(file);
    }
  }

  @Test
  void theRegisteredFileTableIsBounded() throws IOException {
    Path path = file(1);
    try (ChunkReader reader = open(pool(1))) {
      for (int i = 0; i < IoUringChunkReader.MAX_OPEN_FILES; i++) {
        assertEquals(i, reader.openFile(path));
      }
      PipelineException e = assertThrows(PipelineException.class, () -> reader.openFile(path));
      assertTrue(e.isQueueFull());
    }
  }

  @Test
  void refusesMoreBuffersThanTheKernelRegisters() {
    BufferPool big = BufferPool.of(BufferPool.allocate(arena, IoUringChunkReader.MAX_BUFFERS + 1, 4096));
    assertThrows(InputException.class, () -> new IoUringChunkReader(big));
  }

  @Test
  void namesItselfAndItsReadMode() {
    try (ChunkReader reader = new IoUringChunkReader(pool(1)); ChunkReader parallel = new IoUringChunkReader(pool(1), true)) {
      assertEquals("io_uring", reader.backend());
      assertEquals("io_uring (parallel reads in io-wq workers)", parallel.backend());
    }
  }
}

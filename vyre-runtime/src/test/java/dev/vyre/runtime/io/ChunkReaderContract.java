package dev.vyre.runtime.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every {@link ChunkReader} must do; each backend's test class extends this. */
public abstract class ChunkReaderContract {

  protected static final int BUFFER_BYTES = 8192;

  @TempDir protected Path dir;
  protected final Arena arena = Arena.ofShared();

  protected abstract ChunkReader open(BufferPool pool);

  @AfterEach
  public void closeArena() {
    arena.close();
  }

  protected BufferPool pool(int buffers) {
    return BufferPool.of(BufferPool.allocate(arena, buffers, BUFFER_BYTES));
  }

  protected Path file(int bytes) throws IOException {
    byte[] content = new byte[bytes];
    new SplittableRandom(bytes).nextBytes(content);
    return Files.write(dir.resolve("data-" + bytes), content);
  }

  static byte[] bytes(MemorySegment buffer, int length) {
    return buffer.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
  }

  @Test
  public void readsEveryChunkWithSeveralInFlightPairedByUserData() throws IOException {
    Path path = file(100_000);
    byte[] content = Files.readAllBytes(path);
    int chunks = Math.ceilDiv(content.length, BUFFER_BYTES);
    BitSet seen = new BitSet();
    try (ChunkReader reader = open(pool(4))) {
      int file = reader.openFile(path);
      int next = 0;
      for (; next < 4; next++) {
        reader.submit(file, (long) next * BUFFER_BYTES, BUFFER_BYTES, next, 1000 + next);
      }
      assertEquals(4, reader.inFlight());
      while (reader.inFlight() > 0) {
        ReadCompletion done = reader.await();
        assertNull(done.error());
        int chunk = (int) done.userData() - 1000;
        int offset = chunk * BUFFER_BYTES;
        int expected = Math.min(BUFFER_BYTES, content.length - offset);
        assertEquals(expected, done.bytesRead(), "the last chunk ends at end of file");
        assertArrayEquals(Arrays.copyOfRange(content, offset, offset + expected),
            bytes(reader.pool().buffer(done.bufferIndex()), expected));
        assertFalse(reader.pool().busy(done.bufferIndex()));
        seen.set(chunk);
        if (next < chunks) {
          reader.submit(file, (long) next * BUFFER_BYTES, BUFFER_BYTES, done.bufferIndex(), 1000 + next);
          next++;
        }
      }
      reader.closeFile(file);
    }
    assertEquals(chunks, seen.cardinality());
  }

  @Test
  public void pollNeverWaitsAndReturnsEachReadOnce() throws IOException {
    Path path = file(3 * BUFFER_BYTES);
    byte[] content = Files.readAllBytes(path);
    try (ChunkReader reader = open(pool(3))) {
      assertNull(reader.poll(), "nothing in flight, nothing finished");
      int file = reader.openFile(path);
      for (int chunk = 0; chunk < 3; chunk++) {
        reader.submit(file, (long) chunk * BUFFER_BYTES, BUFFER_BYTES, chunk, chunk);
      }
      BitSet seen = new BitSet();
      while (reader.inFlight() > 0) {
        ReadCompletion done = reader.poll();
        if (done == null) {
          Thread.onSpinWait();
          continue;
        }
        assertNull(done.error());
        int offset = (int) done.userData() * BUFFER_BYTES;
        assertArrayEquals(Arrays.copyOfRange(content, offset, offset + BUFFER_BYTES),
            bytes(reader.pool().buffer(done.bufferIndex()), BUFFER_BYTES));
        assertFalse(seen.get((int) done.userData()), "each read is returned once");
        seen.set((int) done.userData());
      }
      assertEquals(3, seen.cardinality());
      assertNull(reader.poll());
      reader.closeFile(file);
    }
  }

  @Test
  public void aReadPastTheEndReturnsWhatThereIs() throws IOException {
    Path path = file(10);
    try (ChunkReader reader = open(pool(1))) {
      int file = reader.openFile(path);
      reader.submit(file, 4, 100, 0, 7);
      ReadCompletion done = reader.await();
      assertEquals(new ReadCompletion(7, 0, 6, null), done);
      reader.submit(file, 50, 100, 0, 8);
      assertEquals(0, reader.await().bytesRead());
    }
  }

  @Test
  public void refusesABusyBufferATooLongReadAndAnUnknownFileChangingNothing() throws IOException {
    Path path = file(100);
    try (ChunkReader reader = open(pool(2))) {
      int file = reader.openFile(path);
      reader.submit(file, 0, 10, 0, 1);
      if (reader.inFlight() == 1 && reader.pool().busy(0)) {
        PipelineException busy = assertThrows(PipelineException.class, () -> reader.submit(file, 0, 10, 0, 2));
        assertTrue(busy.isQueueFull());
        assertTrue(busy.getMessage().contains("buffer 0 already has a read in flight"), busy.getMessage());
      }
      assertThrows(PipelineException.class, () -> reader.submit(file, 0, BUFFER_BYTES + 1, 1, 3));
      assertThrows(PipelineException.class, () -> reader.submit(file, 0, 0, 1, 3));
      assertThrows(PipelineException.class, () -> reader.submit(file, -1, 10, 1, 3));
      assertThrows(PipelineException.class, () -> reader.submit(file, 0, 10, 2, 3));
      assertThrows(PipelineException.class, () -> reader.submit(file + 1, 0, 10, 1, 3));
      assertFalse(reader.pool().busy(1));
      assertEquals(1, reader.await().userData());
      assertThrows(PipelineException.class, reader::await, "nothing in flight");
    }
  }

  @Test
  public void aMissingFileIsAPipelineErrorAndTheReaderGoesOn() throws IOException {
    Path path = file(100);
    try (ChunkReader reader = open(pool(1))) {
      PipelineException missing = assertThrows(PipelineException.class,
          () -> reader.openFile(dir.resolve("absent")));
      assertTrue(missing.getMessage().contains("absent"), missing.getMessage());
      int file = reader.openFile(path);
      reader.submit(file, 0, 100, 0, 0);
      assertEquals(100, reader.await().bytesRead());
    }
  }

  @Test
  public void fileHandlesAreReusedAfterClose() throws IOException {
    Path path = file(100);
    try (ChunkReader reader = open(pool(1))) {
      int first = reader.openFile(path);
      reader.closeFile(first);
      assertThrows(PipelineException.class, () -> reader.closeFile(first));
      assertEquals(first, reader.openFile(path));
    }
  }

  @Test
  public void closeWaitsForReadsInFlightAndTheReaderRefusesWorkAfterwards() throws IOException {
    Path path = file(BUFFER_BYTES * 3);
    ChunkReader reader = open(pool(3));
    int file = reader.openFile(path);
    for (int i = 0; i < 3; i++) {
      reader.submit(file, (long) i * BUFFER_BYTES, BUFFER_BYTES, i, i);
    }
    reader.close();
    assertEquals(0, reader.pool().busyCount());
    assertThrows(PipelineException.class, () -> reader.openFile(path));
    assertThrows(PipelineException.class, () -> reader.submit(file, 0, 1, 0, 0));
    reader.close();
  }
}

package dev.vyre.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.BitSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
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

  /**
   * readAll: many ranges (more than an io_uring reader's submission ring holds at once), from two
   * files, each to its own place in one buffer; a range past the end of its file reads what there is.
   */
  @Test
  public void readAllReadsEveryRangeToItsPlaceInOneBuffer() throws IOException {
    Path first = file(6000);
    Path second = file(70);
    byte[] firstContent = Files.readAllBytes(first);
    byte[] secondContent = Files.readAllBytes(second);
    int ranges = 150;
    int[] files = new int[ranges + 1];
    long[] fileOffsets = new long[ranges + 1];
    int[] lengths = new int[ranges + 1];
    long[] bufferOffsets = new long[ranges + 1];
    ReadCompletion[] completions = new ReadCompletion[ranges + 1];
    try (ChunkReader reader = open(pool(1))) {
      int a = reader.openFile(first);
      int b = reader.openFile(second);
      for (int i = 0; i < ranges; i++) {
        // Range i: 40 bytes of the first file from 40 * (ranges - 1 - i), to buffer byte 40 * i.
        files[i] = a;
        fileOffsets[i] = 40L * (ranges - 1 - i);
        lengths[i] = 40;
        bufferOffsets[i] = 40L * i;
      }
      files[ranges] = b;
      fileOffsets[ranges] = 50;
      lengths[ranges] = 100;
      bufferOffsets[ranges] = 6100;
      reader.readAll(0, ranges + 1, files, fileOffsets, lengths, bufferOffsets, completions);
      assertEquals(0, reader.inFlight());
      assertFalse(reader.pool().busy(0));
      MemorySegment buffer = reader.pool().buffer(0);
      for (int i = 0; i < ranges; i++) {
        assertNull(completions[i].error());
        assertEquals(i, completions[i].userData());
        assertEquals(40, completions[i].bytesRead());
        int from = 40 * (ranges - 1 - i);
        assertArrayEquals(Arrays.copyOfRange(firstContent, from, from + 40),
            buffer.asSlice(40L * i, 40).toArray(ValueLayout.JAVA_BYTE), "range " + i);
      }
      assertEquals(20, completions[ranges].bytesRead(), "the file ends 20 bytes into the range");
      assertArrayEquals(Arrays.copyOfRange(secondContent, 50, 70), buffer.asSlice(6100, 20).toArray(ValueLayout.JAVA_BYTE));
      reader.closeFile(a);
      reader.closeFile(b);
    }
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
  public void readsOneFileAfterAnotherIntoOneBufferAtOffsetsAndRefusesARangePastItsEnd() throws IOException {
    Path small = file(100);
    Path other = file(300);
    try (ChunkReader reader = open(pool(1))) {
      int first = reader.openFile(small);
      int second = reader.openFile(other);
      reader.submit(first, 0, 100, 0, 0, 1);
      assertEquals(new ReadCompletion(1, 0, 100, null), reader.await());
      reader.submit(second, 0, 300, 0, 100, 2);
      assertEquals(new ReadCompletion(2, 0, 300, null), reader.await());
      MemorySegment buffer = reader.pool().buffer(0);
      assertArrayEquals(Files.readAllBytes(small), bytes(buffer, 100), "the first file is kept");
      assertArrayEquals(Files.readAllBytes(other), buffer.asSlice(100, 300).toArray(ValueLayout.JAVA_BYTE));
      assertThrows(PipelineException.class, () -> reader.submit(first, 0, 100, 0, BUFFER_BYTES - 99, 3));
      assertThrows(PipelineException.class, () -> reader.submit(first, 0, 100, 0, -1, 3));
      assertFalse(reader.pool().busy(0));
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
        assertEquals(PipelineException.Variant.Busy, busy.variant());
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

  @Test
  public void aZeroLengthFileReadsNothingWithoutAnError() throws IOException {
    Path path = Files.createFile(dir.resolve("empty"));
    try (ChunkReader reader = open(pool(1))) {
      int file = reader.openFile(path);
      reader.submit(file, 0, BUFFER_BYTES, 0, 5);
      assertEquals(new ReadCompletion(5, 0, 0, null), reader.await());
      reader.closeFile(file);
    }
  }

  @Test
  public void readsAtOffsetsPastTwoAndFourGiBOfASparseFile() throws IOException {
    Path path = dir.resolve("sparse");
    long[] offsets = {(1L << 31) - 3, (1L << 32) + 5};
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
      file.setLength((1L << 32) + BUFFER_BYTES);
      for (long offset : offsets) {
        file.seek(offset);
        file.write(new byte[] {1, 2, 3, 4, 5, 6, 7});
      }
    }
    try (ChunkReader reader = open(pool(2))) {
      int file = reader.openFile(path);
      for (int i = 0; i < offsets.length; i++) {
        reader.submit(file, offsets[i], 16, i, offsets[i]);
      }
      for (int i = 0; i < offsets.length; i++) {
        ReadCompletion done = reader.await();
        assertNull(done.error());
        assertEquals(16, done.bytesRead());
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0},
            bytes(reader.pool().buffer(done.bufferIndex()), 16), "read at " + done.userData());
      }
      reader.submit(file, (1L << 32) + BUFFER_BYTES - 10, 100, 0, 0);
      assertEquals(10, reader.await().bytesRead(), "the end of a file past 4 GiB");
    }
  }

  @Test
  public void aFileThatShrankReadsToItsNewEndAndOneThatGrewReadsWhatWasAsked() throws IOException {
    Path path = file(3 * BUFFER_BYTES);
    byte[] content = Files.readAllBytes(path);
    try (ChunkReader reader = open(pool(1))) {
      int file = reader.openFile(path);
      try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw")) {
        raf.setLength(BUFFER_BYTES + 100);
      }
      reader.submit(file, BUFFER_BYTES, BUFFER_BYTES, 0, 1);
      ReadCompletion shrunk = reader.await();
      assertEquals(new ReadCompletion(1, 0, 100, null), shrunk);
      assertArrayEquals(Arrays.copyOfRange(content, BUFFER_BYTES, BUFFER_BYTES + 100),
          bytes(reader.pool().buffer(0), 100));
      Files.write(path, content);
      reader.submit(file, BUFFER_BYTES, BUFFER_BYTES, 0, 2);
      assertEquals(new ReadCompletion(2, 0, BUFFER_BYTES, null), reader.await());
      assertArrayEquals(Arrays.copyOfRange(content, BUFFER_BYTES, 2 * BUFFER_BYTES),
          bytes(reader.pool().buffer(0), BUFFER_BYTES));
    }
  }

  @Test
  public void aDirectoryFailsAsThatFileAloneWhileOtherReadsGoOn() throws IOException {
    Path path = file(BUFFER_BYTES);
    byte[] content = Files.readAllBytes(path);
    try (ChunkReader reader = open(pool(2))) {
      int good = reader.openFile(path);
      reader.submit(good, 0, BUFFER_BYTES, 0, 10);
      PipelineException error;
      try {
        int bad = reader.openFile(dir);
        reader.submit(bad, 0, BUFFER_BYTES, 1, 11);
        ReadCompletion first = reader.await();
        ReadCompletion failed = first.userData() == 11 ? first : reader.await();
        ReadCompletion read = first.userData() == 10 ? first : reader.await();
        assertTrue(failed.failed());
        assertEquals(0, failed.bytesRead());
        assertFalse(reader.pool().busy(1));
        assertEquals(new ReadCompletion(10, 0, BUFFER_BYTES, null), read);
        error = failed.error();
        reader.closeFile(bad);
      } catch (PipelineException openFailed) {
        error = openFailed;
        assertEquals(new ReadCompletion(10, 0, BUFFER_BYTES, null), reader.await());
      }
      assertArrayEquals(content, bytes(reader.pool().buffer(0), BUFFER_BYTES));
      assertTrue(error.getMessage().contains("Fix: "), error.getMessage());
      reader.submit(good, 0, 10, 1, 12);
      assertEquals(new ReadCompletion(12, 1, 10, null), reader.await());
    }
  }

  @Test
  public void manySmallFilesThroughMoreReadsThanRingEntriesLeakNoDescriptor() throws IOException {
    int files = 3 * 64 + 7;
    Path[] paths = new Path[files];
    for (int i = 0; i < files; i++) {
      paths[i] = Files.write(dir.resolve("small-" + i), new byte[] {(byte) i, (byte) (i >> 8), 42});
    }
    long before = openDescriptors();
    try (ChunkReader reader = open(pool(3))) {
      int[] handles = new int[3];
      int next = 0;
      for (; next < 3; next++) {
        handles[next] = reader.openFile(paths[next]);
        reader.submit(handles[next], 0, 100, next, next);
      }
      BitSet seen = new BitSet();
      while (reader.inFlight() > 0) {
        ReadCompletion done = reader.await();
        int i = (int) done.userData();
        assertEquals(3, done.bytesRead());
        assertArrayEquals(new byte[] {(byte) i, (byte) (i >> 8), 42}, bytes(reader.pool().buffer(done.bufferIndex()), 3));
        assertFalse(seen.get(i));
        seen.set(i);
        reader.closeFile(handles[done.bufferIndex()]);
        if (next < files) {
          handles[done.bufferIndex()] = reader.openFile(paths[next]);
          reader.submit(handles[done.bufferIndex()], 0, 100, done.bufferIndex(), next);
          next++;
        }
      }
      assertEquals(files, seen.cardinality());
      for (int i = 0; i < 5; i++) {
        reader.openFile(paths[i]);
      }
    }
    assertEquals(before, openDescriptors(), "descriptors open before and after");
  }

  @Test
  public void shortReadsOfAProcFileBeforeItsEndAreContinued() throws IOException {
    Path path = Path.of("/proc/kallsyms");
    Assumptions.assumeTrue(Files.isReadable(path));
    byte[] content = Files.readAllBytes(path);
    Assumptions.assumeTrue(content.length > 3 * BUFFER_BYTES);
    try (ChunkReader reader = open(pool(2))) {
      int file = reader.openFile(path);
      reader.submit(file, 0, BUFFER_BYTES, 0, 0);
      reader.submit(file, 1000, BUFFER_BYTES, 1, 1);
      for (int i = 0; i < 2; i++) {
        ReadCompletion done = reader.await();
        int offset = done.userData() == 0 ? 0 : 1000;
        assertEquals(BUFFER_BYTES, done.bytesRead());
        assertArrayEquals(Arrays.copyOfRange(content, offset, offset + BUFFER_BYTES),
            bytes(reader.pool().buffer(done.bufferIndex()), BUFFER_BYTES));
      }
    }
  }

  protected static long openDescriptors() throws IOException {
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }

  /** A name that is not UTF-8 (Java shows it with U+FFFD) opens by its own bytes, not the shown name's. */
  @Test
  public void aFileWhoseNameIsNotUtf8OpensAndReads() throws Exception {
    PathBytesTest.touch(dir, "n\\377.bin");
    Path path;
    try (var files = Files.list(dir)) {
      path = files.filter(p -> p.getFileName().toString().startsWith("n")).findFirst().orElseThrow();
    }
    try (ChunkReader reader = open(pool(1))) {
      int file = reader.openFile(path);
      reader.submit(file, 0, 100, 0, 4);
      ReadCompletion done = reader.await();
      assertNull(done.error());
      assertEquals(3, done.bytesRead());
      assertArrayEquals("key".getBytes(StandardCharsets.US_ASCII), bytes(reader.pool().buffer(0), 3));
      reader.closeFile(file);
    }
  }

  /**
   * A FIFO where a listed file was (swapped in after the walk) is refused at once with an errno, not
   * waited on: a blocking open(2) of a FIFO waits for a writer for ever.
   */
  @Test
  public void aFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
    Path fifo = mkfifo(dir.resolve("fifo"));
    try (ChunkReader reader = open(pool(1))) {
      PipelineException refused = assertTimeoutPreemptively(Duration.ofSeconds(20),
          () -> assertThrows(PipelineException.class, () -> reader.openFile(fifo)));
      assertEquals(29L, refused.fields().get("errno"), refused.getMessage());
      // The reader still opens and reads other files.
      Path data = file(100);
      int handle = reader.openFile(data);
      reader.closeFile(handle);
    }
  }

  /** A FIFO at {@code path}, made by mkfifo(1); the test is skipped where there is none. */
  public static Path mkfifo(Path path) throws IOException, InterruptedException {
    Process process;
    try {
      process = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
    } catch (IOException missing) {
      Assumptions.abort("mkfifo(1) is not available here: " + missing.getMessage());
      throw missing;
    }
    Assumptions.assumeTrue(process.waitFor() == 0 && Files.exists(path), "mkfifo(1) failed here");
    return path;
  }
}

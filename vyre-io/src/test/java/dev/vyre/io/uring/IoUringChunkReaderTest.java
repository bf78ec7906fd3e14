package dev.vyre.io.uring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;
import dev.vyre.io.ChunkReaderContract;
import dev.vyre.io.IoBackends;
import dev.vyre.io.ReadCompletion;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IoUringChunkReaderTest extends ChunkReaderContract {

  private static final long SYS_GETTID = 186;
  private static final long SYS_TGKILL = 234;
  private static final long SIGPIPE = 13;

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
      assertEquals(PipelineException.Variant.IoUringSyscall, e.variant());
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
      assertEquals(PipelineException.Variant.QueueFull, e.variant());
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

  /**
   * A wait in io_uring_enter that a signal interrupts fails with EINTR and must be entered again.
   * A FIFO keeps the read pending while this thread is sent SIGPIPE, which the JVM catches.
   */
  @Test
  void aWaitInterruptedByASignalIsEnteredAgain() throws Exception {
    Assumptions.assumeTrue(System.getProperty("os.arch").equals("amd64"), "gettid and tgkill numbers are x86_64's");
    Path fifo = dir.resolve("fifo");
    Assumptions.assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo failed");
    try (ChunkReader reader = open(pool(1))) {
      LinuxCalls calls = new LinuxCalls(arena);
      long tid = calls.syscall("gettid", SYS_GETTID, 0, 0, 0, 0, 0, 0, "x86_64 only");
      long pid = ProcessHandle.current().pid();
      Thread writer = Thread.ofPlatform().start(() -> {
        try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
          LinuxCalls mine = new LinuxCalls(Arena.ofAuto());
          for (int i = 0; i < 5; i++) {
            Thread.sleep(50);
            mine.syscall("tgkill", SYS_TGKILL, pid, tid, SIGPIPE, 0, 0, 0, "x86_64 only");
          }
          out.write(new byte[] {1, 2, 3, 4, 5});
        } catch (IOException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      // openFile refuses a FIFO (its open would wait for a writer); this test wants a read that waits.
      int file = ((IoUringChunkReader) reader).register(calls.openUnchecked(fifo));
      reader.submit(file, 0, 5, 0, 9);
      assertEquals(new ReadCompletion(9, 0, 5, null), reader.await());
      writer.join();
    }
  }

  @Test
  void filesOpenedAheadReadAsFilesOpenedWhenAsked() throws IOException {
    Path first = file(100);
    Path second = file(200);
    try (ChunkReader reader = open(pool(1))) {
      assertTrue(reader.expect(first));
      assertTrue(reader.expect(second));
      for (Path path : List.of(first, second)) {
        int handle = reader.openFile(path);
        reader.submit(handle, 0, 300, 0, 0);
        ReadCompletion read = reader.await();
        assertEquals(Files.size(path), read.bytesRead());
        assertArrayEquals(Files.readAllBytes(path), reader.pool().buffer(0).asSlice(0, read.bytesRead()).toArray(JAVA_BYTE));
        reader.closeFile(handle);
      }
    }
  }

  @Test
  void aFileExpectedThatVanishedFailsToOpenAsWhenAsked() throws IOException {
    Path gone = file(10);
    try (ChunkReader reader = open(pool(1))) {
      Files.delete(gone);
      assertTrue(reader.expect(gone));
      PipelineException e = assertThrows(PipelineException.class, () -> reader.openFile(gone));
      assertEquals((long) Errno.ENOENT, e.fields().get("errno"));
      assertTrue(e.getMessage().startsWith("io_uring open(" + gone + ") failed with errno 2. Fix: ENOENT: "), e.getMessage());
    }
  }

  /** A FIFO opened ahead is refused by its descriptor (ESPIPE), as the open when asked refuses it, and never waits. */
  @Test
  void aFifoExpectedIsRefusedWithoutWaiting() throws Exception {
    Path fifo = dir.resolve("ahead-fifo");
    Assumptions.assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo failed");
    try (ChunkReader reader = open(pool(1))) {
      assertTrue(reader.expect(fifo));
      PipelineException e = assertThrows(PipelineException.class, () -> reader.openFile(fifo));
      assertEquals((long) LinuxCalls.ESPIPE, e.fields().get("errno"));
    }
  }

  /** Files expected and not opened, skipped or left at the end, are closed: no descriptor leaks. */
  @Test
  void filesExpectedAndNeverOpenedAreClosed() throws IOException {
    Path[] paths = new Path[6];
    for (int i = 0; i < paths.length; i++) {
      paths[i] = file(10 + i);
    }
    long before = openDescriptors();
    try (ChunkReader reader = open(pool(1))) {
      for (Path path : paths) {
        assertTrue(reader.expect(path));
      }
      // The first two are skipped; the last three are never asked for.
      int handle = reader.openFile(paths[2]);
      reader.submit(handle, 0, 100, 0, 0);
      assertEquals(12, reader.await().bytesRead());
      reader.closeFile(handle);
    }
    assertEquals(before, openDescriptors(), "descriptors open before and after");
  }

  @Test
  void takesNoMoreFilesAheadThanItHolds() throws IOException {
    Path path = file(1);
    try (ChunkReader reader = open(pool(1))) {
      int taken = 0;
      while (taken <= IoUringChunkReader.OPEN_AHEAD && reader.expect(path)) {
        taken++;
      }
      assertEquals(IoUringChunkReader.OPEN_AHEAD, taken);
      // Each open takes the oldest file expected under that name, which frees its place.
      reader.closeFile(reader.openFile(path));
      assertTrue(reader.expect(path));
    }
  }
}

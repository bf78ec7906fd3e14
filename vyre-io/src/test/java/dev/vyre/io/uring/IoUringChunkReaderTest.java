package dev.vyre.io.uring;

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
import java.nio.file.Path;
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
}

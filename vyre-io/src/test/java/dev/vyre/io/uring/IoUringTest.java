package dev.vyre.io.uring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.IoBackends;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One ring's io_uring_enter when the kernel refuses it with EBUSY or EAGAIN, on a real ring whose
 * enter call is wrapped by a fake kernel that refuses before it lets the real call through.
 */
class IoUringTest {

  private static final int BUFFERS = 4;
  private static final int BUFFER_BYTES = 4096;

  @TempDir Path dir;
  private final Arena arena = Arena.ofShared();
  private final List<MemorySegment> buffers = new ArrayList<>();
  private byte[] content;
  private IoUring ring;
  private int fd = -1;
  /** Completions handed to the handler, by user_data (the buffer index), with their results. */
  private final List<long[]> completions = new ArrayList<>();
  private final IoUring.CompletionHandler handler = (userData, result) -> completions.add(new long[] {userData, result});

  @BeforeAll
  static void requireIoUring() {
    Assumptions.assumeTrue(IoBackends.availability().available(), IoBackends.availability().detail());
  }

  @BeforeEach
  void file() throws IOException {
    content = new byte[BUFFERS * BUFFER_BYTES];
    new SplittableRandom(7).nextBytes(content);
    Files.write(dir.resolve("data"), content);
    for (int i = 0; i < BUFFERS; i++) {
      buffers.add(arena.allocate(BUFFER_BYTES, 4096));
    }
  }

  @AfterEach
  void close() {
    if (ring != null) {
      if (fd >= 0) {
        ring.calls().close(fd);
      }
      ring.close();
    }
    arena.close();
  }

  private IoUring open(IoUring.EnterCall enterCall) {
    ring = new IoUring(BUFFERS, enterCall);
    ring.registerBuffers(buffers);
    fd = ring.calls().open(dir.resolve("data"));
    return ring;
  }

  private void queue(int buffer) {
    assertTrue(ring.queueReadFixed(fd, buffers.get(buffer).address(), BUFFER_BYTES, (long) buffer * BUFFER_BYTES,
        buffer, buffer, false));
  }

  private void assertRead(int buffer) {
    long[] completion = completions.stream().filter(c -> c[0] == buffer).findFirst().orElseThrow();
    assertEquals(BUFFER_BYTES, completion[1], "bytes read into buffer " + buffer);
    assertArrayEquals(Arrays.copyOfRange(content, buffer * BUFFER_BYTES, (buffer + 1) * BUFFER_BYTES),
        buffers.get(buffer).toArray(ValueLayout.JAVA_BYTE));
  }

  private static PipelineException refusal(int errno) {
    return PipelineException.ioUringSyscall("io_uring_enter", errno, Errno.name(errno) + ": test");
  }

  /**
   * A kernel whose completion ring overflowed (IORING_FEAT_NODROP): it answers EBUSY to every
   * entry while the application holds a completion it has not reaped, here counted as a read that
   * was submitted and not yet handed to the handler. Only reaping lets the next read in.
   */
  @Test
  void aCompletionRingThatMustBeReapedFirstIsReapedAndTheEntryMadeAgain() {
    int[] submitted = {0};
    int[] refused = {0};
    open((calls, ringFd, toSubmit, minComplete, flags) -> {
      if (submitted[0] > completions.size()) {
        refused[0]++;
        throw refusal(Errno.EBUSY);
      }
      long consumed = IoUring.EnterCall.SYSCALL.enter(calls, ringFd, toSubmit, minComplete, flags);
      submitted[0] += (int) consumed;
      return consumed;
    });
    for (int buffer = 0; buffer < BUFFERS; buffer++) {
      queue(buffer);
      ring.enter(0, handler);
    }
    while (completions.size() < BUFFERS) {
      ring.enter(ring.drainCompletions(handler) == 0 ? 1 : 0, handler);
    }
    assertEquals(BUFFERS, submitted[0]);
    assertTrue(refused[0] >= BUFFERS - 1, "every read after the first found the previous one unreaped: " + refused[0]);
    for (int buffer = 0; buffer < BUFFERS; buffer++) {
      assertRead(buffer);
    }
  }

  /** EAGAIN with nothing in flight to reap: the entry is made again after a growing backoff. */
  @Test
  void eagainWithNothingToReapIsRetriedAfterABackoff() {
    int[] calls = {0};
    open((linux, ringFd, toSubmit, minComplete, flags) -> {
      if (++calls[0] <= 3) {
        throw refusal(Errno.EAGAIN);
      }
      return IoUring.EnterCall.SYSCALL.enter(linux, ringFd, toSubmit, minComplete, flags);
    });
    queue(0);
    long start = System.nanoTime();
    ring.enter(1, handler);
    long elapsed = System.nanoTime() - start;
    assertEquals(4, calls[0], "three refusals, then the real entry");
    long backoffs = IoUring.FIRST_BACKOFF_NANOS * (1 + 2 + 4);
    assertTrue(elapsed >= backoffs, "backed off " + elapsed + " ns, at least " + backoffs + " expected");
    ring.drainCompletions(handler);
    assertRead(0);
  }

  /** A kernel that never stops refusing: the errno surfaces after the bounded retries, with a fix. */
  @Test
  void aKernelThatKeepsRefusingFailsWithItsErrnoAndAFixAfterBoundedRetries() {
    for (int errno : new int[] {Errno.EBUSY, Errno.EAGAIN}) {
      int[] calls = {0};
      IoUring refusing = new IoUring(BUFFERS, (linux, ringFd, toSubmit, minComplete, flags) -> {
        calls[0]++;
        throw refusal(errno);
      });
      try {
        refusing.registerBuffers(buffers);
        assertTrue(refusing.queueReadFixed(0, buffers.getFirst().address(), BUFFER_BYTES, 0, 0, 0, false));
        PipelineException e = assertThrows(PipelineException.class, () -> refusing.enter(0, handler));
        assertEquals(PipelineException.Variant.IoUringSyscall, e.variant());
        assertEquals((long) errno, e.fields().get("errno"));
        assertEquals(IoUring.MAX_FRUITLESS_RETRIES + 1, calls[0]);
        assertTrue(e.getMessage().startsWith("io_uring io_uring_enter failed with errno " + errno + ". Fix: "
            + Errno.name(errno) + " on " + (IoUring.MAX_FRUITLESS_RETRIES + 1) + " entries in a row"), e.getMessage());
        assertTrue(e.getMessage().contains("use the FileChannel reader"), e.getMessage());
      } finally {
        refusing.close();
      }
    }
  }

  /** Errors other than EINTR, EBUSY and EAGAIN are not the kernel asking to be entered again. */
  @Test
  void otherErrnosFailAtOnce() {
    int[] calls = {0};
    open((linux, ringFd, toSubmit, minComplete, flags) -> {
      calls[0]++;
      throw refusal(Errno.EINVAL);
    });
    queue(0);
    PipelineException e = assertThrows(PipelineException.class, () -> ring.enter(0, handler));
    assertEquals((long) Errno.EINVAL, e.fields().get("errno"));
    assertEquals(1, calls[0]);
  }
}

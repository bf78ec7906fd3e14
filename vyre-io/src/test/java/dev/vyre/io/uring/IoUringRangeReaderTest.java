package dev.vyre.io.uring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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

/** Reads of file ranges on one ring, real files and real syscalls, the kernel's entries counted where it matters. */
class IoUringRangeReaderTest {

  private static final int TAGS = 64;

  /** One ended read, as {@link IoUringRangeReader.Finished} reported it. */
  private record Ended(int tag, long bytesRead, String failure) {}

  @TempDir Path dir;
  private final Arena arena = Arena.ofShared();
  private final List<Ended> ended = new ArrayList<>();
  private byte[] content;
  private Path file;
  private int fd = -1;
  /** io_uring_enter calls, and the entries each was asked to submit. */
  private final List<Integer> enters = new ArrayList<>();

  @BeforeAll
  static void requireIoUring() {
    Assumptions.assumeTrue(IoBackends.availability().available(), IoBackends.availability().detail());
  }

  @BeforeEach
  void writeFile() throws IOException {
    content = new byte[1 << 20];
    new SplittableRandom(5).nextBytes(content);
    file = Files.write(dir.resolve("data.bin"), content);
    fd = LinuxFiles.openReadOnly(file);
  }

  @AfterEach
  void closeFile() {
    if (fd >= 0) {
      LinuxFiles.close(fd);
    }
    arena.close();
  }

  private IoUringRangeReader reader(IoUring.EnterCall enterCall, long maxEntryBytes) {
    return new IoUringRangeReader(TAGS, (tag, bytesRead, failure) -> ended.add(new Ended(tag, bytesRead, failure)),
        (calls, ringFd, toSubmit, minComplete, flags) -> {
          enters.add(toSubmit);
          return enterCall.enter(calls, ringFd, toSubmit, minComplete, flags);
        }, maxEntryBytes);
  }

  private static PipelineException refusal(int errno) {
    return PipelineException.ioUringSyscall("io_uring_enter", errno, Errno.name(errno) + ": test");
  }

  /** Reaps until {@code count} reads have ended, submitting the rest of short ones. */
  private void awaitEnded(IoUringRangeReader reader, int count) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (ended.size() < count) {
      assertTrue(System.nanoTime() < deadline, ended.size() + " of " + count + " reads ended");
      reader.reap();
      reader.submit();
      Thread.yield();
    }
  }

  private void assertHolds(MemorySegment destination, long offset, int bytes) {
    assertArrayEquals(Arrays.copyOfRange(content, (int) offset, (int) offset + bytes),
        destination.asSlice(0, bytes).toArray(ValueLayout.JAVA_BYTE), "bytes at " + offset);
  }

  @Test
  void sixtyFourReadsGoToTheKernelInOneEnterAndEachGetsItsRange() {
    MemorySegment[] destinations = new MemorySegment[TAGS];
    try (IoUringRangeReader reader = reader(IoUring.EnterCall.SYSCALL, IoUringRangeReader.MAX_ENTRY_BYTES)) {
      for (int tag = 0; tag < TAGS; tag++) {
        destinations[tag] = arena.allocate(8192 + tag, 4096);
        reader.read(tag, fd, tag * 16_001L, destinations[tag], 8192 + tag);
      }
      assertEquals(TAGS, reader.inFlight());
      assertEquals(List.of(), enters, "queueing makes no syscall");
      reader.submit();
      assertEquals(List.of(TAGS), enters, "one io_uring_enter submits all 64");
      awaitEnded(reader, TAGS);
      assertEquals(0, reader.inFlight());
    }
    for (Ended read : ended) {
      assertNull(read.failure());
      assertEquals(8192 + read.tag(), read.bytesRead());
      assertHolds(destinations[read.tag()], read.tag() * 16_001L, 8192 + read.tag());
    }
    assertEquals(TAGS, ended.stream().mapToInt(Ended::tag).distinct().count());
  }

  @Test
  void aReadLongerThanAnEntryIsContinuedWhereItStopped() {
    MemorySegment destination = arena.allocate(65_536 + 100, 4096);
    try (IoUringRangeReader reader = reader(IoUring.EnterCall.SYSCALL, 4096)) {
      reader.read(3, fd, 777, destination, 65_536 + 100);
      reader.submit();
      awaitEnded(reader, 1);
    }
    assertEquals(new Ended(3, 65_636, null), ended.getFirst());
    assertHolds(destination, 777, 65_636);
    assertTrue(enters.size() >= 17, "17 entries of at most 4 KiB, each submitted after the one before: " + enters);
  }

  @Test
  void aReadPastTheEndOfTheFileEndsThereWithoutAFailure() {
    MemorySegment destination = arena.allocate(200, 4096);
    try (IoUringRangeReader reader = reader(IoUring.EnterCall.SYSCALL, IoUringRangeReader.MAX_ENTRY_BYTES)) {
      reader.read(0, fd, content.length - 100, destination, 200);
      reader.read(1, fd, content.length + 5000, arena.allocate(16), 16);
      reader.submit();
      awaitEnded(reader, 2);
    }
    assertTrue(ended.contains(new Ended(0, 100, null)), ended.toString());
    assertTrue(ended.contains(new Ended(1, 0, null)), ended.toString());
    assertHolds(destination, content.length - 100, 100);
  }

  @Test
  void aReadTheKernelFailsNamesTheErrno() {
    int directory = LinuxFiles.openReadOnly(dir);
    try (IoUringRangeReader reader = reader(IoUring.EnterCall.SYSCALL, IoUringRangeReader.MAX_ENTRY_BYTES)) {
      reader.read(0, directory, 0, arena.allocate(64), 64);
      reader.submit();
      awaitEnded(reader, 1);
    } finally {
      LinuxFiles.close(directory);
    }
    assertEquals(new Ended(0, 0, "EISDIR (errno 21)"), ended.getFirst());
  }

  /**
   * A kernel that refuses the first io_uring_enter (EINVAL is not retried): the reads it was to
   * submit end failed with the reason, and no later enter submits them, so their memory is never
   * written.
   */
  @Test
  void readsWhoseSubmissionIsRefusedEndFailedAndAreNeverSubmitted() {
    boolean[] refuse = {true};
    MemorySegment[] refused = {arena.allocate(4096, 4096), arena.allocate(4096, 4096), arena.allocate(4096, 4096)};
    MemorySegment later = arena.allocate(4096, 4096);
    try (IoUringRangeReader reader = reader((calls, ringFd, toSubmit, minComplete, flags) -> {
      if (refuse[0]) {
        throw refusal(Errno.EINVAL);
      }
      return IoUring.EnterCall.SYSCALL.enter(calls, ringFd, toSubmit, minComplete, flags);
    }, IoUringRangeReader.MAX_ENTRY_BYTES)) {
      for (int tag = 0; tag < refused.length; tag++) {
        reader.read(tag, fd, 4096L * tag, refused[tag], 4096);
      }
      reader.submit();
      assertEquals(0, reader.inFlight());
      assertEquals(3, ended.size());
      for (Ended read : ended) {
        assertTrue(read.failure().startsWith("io_uring_enter refused to submit it: io_uring io_uring_enter failed with errno 22"),
            read.failure());
      }
      refuse[0] = false;
      reader.read(0, fd, 8192, later, 4096);
      reader.submit();
      assertEquals(List.of(3, 1), enters, "the refused entries were taken back: the next enter submits one");
      awaitEnded(reader, 4);
    }
    assertEquals(new Ended(0, 4096, null), ended.getLast());
    assertHolds(later, 8192, 4096);
    for (MemorySegment memory : refused) {
      assertEquals(-1, memory.mismatch(MemorySegment.ofArray(new byte[4096])), "a refused read wrote nothing");
    }
  }

  @Test
  void closeWaitsForEveryReadInFlightToEnd() {
    LinuxFiles.evictFromPageCache(file);
    MemorySegment[] destinations = new MemorySegment[TAGS];
    IoUringRangeReader reader = reader(IoUring.EnterCall.SYSCALL, IoUringRangeReader.MAX_ENTRY_BYTES);
    for (int tag = 0; tag < TAGS; tag++) {
      destinations[tag] = arena.allocate(16_384, 4096);
      reader.read(tag, fd, tag * 16_384L, destinations[tag], 16_384);
    }
    reader.submit();
    reader.close();
    assertEquals(TAGS, ended.size(), "every read ended before close returned");
    for (Ended read : ended) {
      assertEquals(new Ended(read.tag(), 16_384, null), read);
      assertHolds(destinations[read.tag()], read.tag() * 16_384L, 16_384);
    }
  }

  @Test
  void aTagInFlightOrADestinationTooSmallIsRefusedAndNothingQueued() {
    try (IoUringRangeReader reader = reader(IoUring.EnterCall.SYSCALL, IoUringRangeReader.MAX_ENTRY_BYTES)) {
      reader.read(0, fd, 0, arena.allocate(64), 64);
      PipelineException busy = assertThrows(PipelineException.class, () -> reader.read(0, fd, 0, arena.allocate(64), 64));
      assertTrue(busy.getMessage().contains("tag 0 is still in flight") && busy.getMessage().contains("Fix:"), busy.getMessage());
      PipelineException small = assertThrows(PipelineException.class, () -> reader.read(1, fd, 0, arena.allocate(64), 65));
      assertTrue(small.getMessage().contains("65 bytes do not fit"), small.getMessage());
      PipelineException heap = assertThrows(PipelineException.class,
          () -> reader.read(1, fd, 0, MemorySegment.ofArray(new byte[64]), 64));
      assertTrue(heap.getMessage().contains("native memory"), heap.getMessage());
      assertEquals(1, reader.inFlight());
      reader.submit();
      assertEquals(List.of(1), enters);
      awaitEnded(reader, 1);
    }
  }
}

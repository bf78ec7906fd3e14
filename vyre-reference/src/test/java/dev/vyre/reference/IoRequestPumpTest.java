package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.io.IoBackends;
import dev.vyre.io.IoRequestPump.ReadPath;
import dev.vyre.io.IoRequestPump;
import dev.vyre.io.uring.LinuxFiles;
import dev.vyre.runtime.spi.KernelMemory;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pump on its own, on a session whose kernel never runs: the test plays the kernel's side of
 * the IO queue (a request and PUBLISHED per slot) and checks the host's (CLAIMED, the bytes, OK or
 * ERROR), on both read paths, with real files.
 */
class IoRequestPumpTest {

  private static final long VERDICT_NANOS = 10_000_000_000L;

  @TempDir
  Path dir;
  private byte[] content;
  private Path file;
  private KernelSession session;
  private MemorySegment queue;

  @BeforeEach
  void open() throws Exception {
    content = new byte[1 << 20];
    new Random(11).nextBytes(content);
    file = Files.write(dir.resolve("data.bin"), content);
    session = new ReferenceBackend().open(new KernelSpec(8, ControlLayout.defaultPriorityOffsets(8), 1, 0, List.of(), 1));
    queue = session.memory().ioQueue();
  }

  @AfterEach
  void close() {
    session.close();
  }

  /** The path a pump asked for {@code asked} reads on here. */
  private static ReadPath expected(ReadPath asked) {
    return asked == ReadPath.IO_URING && IoBackends.availability().available() ? ReadPath.IO_URING : ReadPath.FILE_CHANNEL;
  }

  private int status(int slot) {
    return Words.getAcquire(queue, IoQueueLayout.word(slot, IoQueueLayout.STATUS));
  }

  /** Waits for the pump's verdict on {@code slot}, which passes through CLAIMED only. */
  private int awaitVerdict(int slot) {
    long deadline = System.nanoTime() + VERDICT_NANOS;
    int status;
    while ((status = status(slot)) != IoQueueLayout.STATUS_OK && status != IoQueueLayout.STATUS_ERROR) {
      assertTrue(status == SlotLayout.STATUS_PUBLISHED || status == SlotLayout.STATUS_CLAIMED, "slot " + slot + ": " + status);
      assertTrue(System.nanoTime() < deadline, "slot " + slot + " was not served");
      Thread.onSpinWait();
    }
    return status;
  }

  private void assertHolds(int resource, long offset, int bytes, String what) {
    byte[] read = new byte[bytes];
    session.readResource(resource, 0, MemorySegment.ofArray(read));
    assertArrayEquals(Arrays.copyOfRange(content, (int) offset, (int) offset + bytes), read, what);
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void threadsServeTheirOwnSlotsAndEveryRequestOnce(ReadPath path) {
    try (IoRequestPump pump = new IoRequestPump(session, 3, path)) {
      assertEquals(3, pump.threads());
      assertEquals(3, Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("vyre-io-pump-")).count());
      assertEquals(expected(path), pump.readPath());
      assertTrue(pump.reader().startsWith(expected(path) == ReadPath.IO_URING ? "io_uring" : "FileChannel"), pump.reader());
      int source = pump.open(file);
      int[] resources = new int[IoQueueLayout.IO_SLOT_COUNT];
      for (int slot = 0; slot < resources.length; slot++) {
        resources[slot] = session.allocateResource(4096, ResourcePlacement.HOST_MAPPED);
        IoQueueLayout.publishRead(queue, slot, source, resources[slot], slot * 10_007L, 4096, slot);
      }
      for (int slot = 0; slot < resources.length; slot++) {
        assertEquals(IoQueueLayout.STATUS_OK, awaitVerdict(slot), "slot " + slot);
        assertHolds(resources[slot], slot * 10_007L, 4096, "slot " + slot);
      }
      assertEquals(new IoRequestPump.Stats(IoQueueLayout.IO_SLOT_COUNT, 0, null), pump.stats());
    }
    assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("vyre-io-pump-") && t.isAlive()));
  }

  /**
   * One thread, every IO slot asking for its own range (1 byte to 63 KiB), half of
   * them into resources without a host view, which go through a bounce buffer per slot; read from
   * the disk, not the page cache, so that reads overlap.
   */
  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void oneThreadServesEveryIoSlotWithItsOwnRange(ReadPath path) {
    int[] resources = new int[IoQueueLayout.IO_SLOT_COUNT];
    int[] bytes = new int[resources.length];
    long[] offsets = new long[resources.length];
    Set<Integer> hidden = new HashSet<>();
    for (int slot = 0; slot < resources.length; slot++) {
      bytes[slot] = slot == 0 ? 1 : slot * 1031;
      offsets[slot] = (slot * 379_993L) % (content.length - bytes[slot]);
      resources[slot] = session.allocateResource(bytes[slot] + slot, ResourcePlacement.DEVICE);
      if (slot % 2 == 1) {
        hidden.add(resources[slot]);
      }
    }
    LinuxFiles.evictFromPageCache(file);
    try (IoRequestPump pump = new IoRequestPump(new ViewlessResources(session, hidden), 1, path)) {
      int source = pump.open(file);
      for (int slot = 0; slot < resources.length; slot++) {
        IoQueueLayout.publishRead(queue, slot, source, resources[slot], offsets[slot], bytes[slot], slot);
      }
      for (int slot = 0; slot < resources.length; slot++) {
        assertEquals(IoQueueLayout.STATUS_OK, awaitVerdict(slot), "slot " + slot + ": " + pump.stats());
        assertHolds(resources[slot], offsets[slot], bytes[slot], "slot " + slot);
      }
      assertEquals(new IoRequestPump.Stats(IoQueueLayout.IO_SLOT_COUNT, 0, null), pump.stats());
    }
  }

  /**
   * How many requests one thread has in flight, seen from the kernel's side: the most IO slots
   * CLAIMED at once while it serves 64 reads of 64 KiB from the disk. One at a time on the
   * FileChannel path, always; more on the io_uring path (a few rounds, in case the polls miss it).
   * "At once" is a snapshot: the status words read twice in a row, alike both times. A status only
   * moves forward (PUBLISHED, CLAIMED, OK), so each word held the value read all the time between
   * the two reads; a single pass over the words would count a slot claimed after the one before
   * it was completed as well.
   */
  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void oneThreadHasManyReadsInFlightOnlyOnIoUring(ReadPath path) {
    int bytes = 65_536;
    int[] resources = new int[IoQueueLayout.IO_SLOT_COUNT];
    for (int slot = 0; slot < resources.length; slot++) {
      resources[slot] = session.allocateResource(bytes, ResourcePlacement.HOST_MAPPED);
    }
    int most = 0;
    for (int round = 0; round < 5 && most < 2; round++) {
      LinuxFiles.evictFromPageCache(file);
      try (IoRequestPump pump = new IoRequestPump(session, 1, path)) {
        int source = pump.open(file);
        for (int slot = 0; slot < resources.length; slot++) {
          IoQueueLayout.publishRead(queue, slot, source, resources[slot], ((long) slot * bytes) % content.length, bytes, slot);
        }
        long deadline = System.nanoTime() + VERDICT_NANOS;
        int[] before = new int[resources.length];
        int[] after = new int[resources.length];
        while (Arrays.stream(after).filter(status -> status == IoQueueLayout.STATUS_OK).count() < resources.length) {
          assertTrue(System.nanoTime() < deadline, "not served: " + pump.stats());
          Arrays.setAll(before, this::status);
          Arrays.setAll(after, this::status);
          if (Arrays.equals(before, after)) {
            most = Math.max(most, (int) Arrays.stream(after).filter(status -> status == SlotLayout.STATUS_CLAIMED).count());
          }
        }
        assertEquals(0, pump.stats().failed(), pump.stats().lastFailure());
      }
      for (int slot = 0; slot < resources.length; slot++) {
        assertHolds(resources[slot], ((long) slot * bytes) % content.length, bytes, "slot " + slot);
        Words.setRelease(queue, IoQueueLayout.word(slot, IoQueueLayout.STATUS), SlotLayout.STATUS_EMPTY);
      }
      if (expected(path) == ReadPath.FILE_CHANNEL) {
        assertTrue(most <= 1, most + " requests in flight at once on one FileChannel thread");
      }
    }
    if (expected(path) == ReadPath.IO_URING) {
      assertTrue(most > 1, "at most " + most + " request in flight at once on the io_uring path");
    }
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void aReadThatMeetsTheEndOfTheFileIsAnErrorThatSaysWhere(ReadPath path) {
    try (IoRequestPump pump = new IoRequestPump(session, 1, path)) {
      int source = pump.open(file);
      int resource = session.allocateResource(4096, ResourcePlacement.HOST_MAPPED);
      IoQueueLayout.publishRead(queue, 0, source, resource, content.length - 100, 200, 0);
      assertEquals(IoQueueLayout.STATUS_ERROR, awaitVerdict(0));
      assertEquals("IO slot 0: the file ends at byte " + content.length + ", before the 200 bytes asked for at "
          + (content.length - 100), pump.stats().lastFailure());
      IoQueueLayout.publishRead(queue, 1, source, resource, content.length + 4096, 16, 1);
      assertEquals(IoQueueLayout.STATUS_ERROR, awaitVerdict(1));
      assertEquals("IO slot 1: the file ends at byte " + (content.length + 4096) + ", before the 16 bytes asked for at "
          + (content.length + 4096), pump.stats().lastFailure());
      IoQueueLayout.publishRead(queue, 2, source, resource, content.length - 100, 100, 2);
      assertEquals(IoQueueLayout.STATUS_OK, awaitVerdict(2), "a read that ends where the file does");
      assertHolds(resource, content.length - 100, 100, "the file's last 100 bytes");
      assertEquals(new IoRequestPump.Stats(3, 2, pump.stats().lastFailure()), pump.stats());
    }
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void aSourceThatIsNotOpenIsAnError(ReadPath path) {
    try (IoRequestPump pump = new IoRequestPump(session, 1, path)) {
      int source = pump.open(file);
      int resource = session.allocateResource(64, ResourcePlacement.HOST_MAPPED);
      IoQueueLayout.publishRead(queue, 0, source + 1, resource, 0, 16, 0);
      assertEquals(IoQueueLayout.STATUS_ERROR, awaitVerdict(0));
      assertEquals("IO slot 0: source 2 is not open (1 open: IoRequestPump.open gives ids from 1)", pump.stats().lastFailure());
      IoQueueLayout.publishRead(queue, 1, 0, resource, 0, 16, 1);
      assertEquals(IoQueueLayout.STATUS_ERROR, awaitVerdict(1), "source 0 reads nothing: only its 0-byte handshake is OK");
      assertTrue(pump.stats().lastFailure().startsWith("IO slot 1: source 0 is not open"), pump.stats().lastFailure());
      IoQueueLayout.publishRead(queue, 2, source, resource, 0, 16, 2);
      assertEquals(IoQueueLayout.STATUS_OK, awaitVerdict(2), "failed requests leave the pump serving");
      assertEquals(2, pump.stats().failed());
    }
  }

  /** A read the kernel fails (a directory has no bytes to read): ERROR, with the kernel's reason. */
  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void aReadTheKernelFailsIsAnErrorWithItsReason(ReadPath path) {
    try (IoRequestPump pump = new IoRequestPump(session, 1, path)) {
      int source = pump.open(dir);
      int resource = session.allocateResource(64, ResourcePlacement.HOST_MAPPED);
      IoQueueLayout.publishRead(queue, 0, source, resource, 0, 64, 0);
      assertEquals(IoQueueLayout.STATUS_ERROR, awaitVerdict(0));
      String reason = expected(path) == ReadPath.IO_URING ? "EISDIR (errno 21)" : "Is a directory";
      assertEquals("IO slot 0: reading 64 bytes at 0 of source 1 into resource " + resource + " failed: " + reason,
          pump.stats().lastFailure());
    }
  }

  /**
   * close() while reads run: every request the pump claimed has its verdict when close returns
   * (none is left CLAIMED with a read still writing), and the ones it did not claim are left
   * PUBLISHED.
   */
  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void closeLeavesNoRequestClaimed(ReadPath path) {
    LinuxFiles.evictFromPageCache(file);
    int bytes = 16_384;
    IoRequestPump pump = new IoRequestPump(session, 1, path);
    int source = pump.open(file);
    int[] resources = new int[IoQueueLayout.IO_SLOT_COUNT];
    for (int slot = 0; slot < resources.length; slot++) {
      resources[slot] = session.allocateResource(bytes, ResourcePlacement.HOST_MAPPED);
    }
    for (int slot = 0; slot < resources.length; slot++) {
      IoQueueLayout.publishRead(queue, slot, source, resources[slot], (long) slot * bytes, bytes, slot);
    }
    pump.close();
    int served = 0;
    for (int slot = 0; slot < resources.length; slot++) {
      int status = status(slot);
      assertTrue(status == IoQueueLayout.STATUS_OK || status == SlotLayout.STATUS_PUBLISHED, "slot " + slot + ": " + status);
      if (status == IoQueueLayout.STATUS_OK) {
        assertHolds(resources[slot], (long) slot * bytes, bytes, "slot " + slot);
        served++;
      }
    }
    assertEquals(new IoRequestPump.Stats(served, 0, null), pump.stats());
    assertNull(pump.stats().lastFailure());
  }

  @Test
  void aFifoIsRefusedAtOnce() throws Exception {
    Path fifo = dir.resolve("pipe");
    Assumptions.assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo failed");
    try (IoRequestPump pump = new IoRequestPump(session, 1)) {
      // Opening a FIFO for reading would wait for a writer (this test would hang): refused before any open.
      InputException e = assertThrows(InputException.class, () -> pump.open(fifo));
      assertTrue(e.getMessage().contains("FIFO") && e.getMessage().contains("Fix:"), e.getMessage());
      assertEquals(1, pump.open(file), "a regular file still opens as source 1");
    }
  }

  @Test
  void aThreadCountOutsideTheQueueIsRefused() {
    for (int threads : new int[] {0, IoQueueLayout.IO_SLOT_COUNT + 1}) {
      InputException e = assertThrows(InputException.class, () -> new IoRequestPump(session, threads));
      assertTrue(e.getMessage().contains("Fix:"), e.getMessage());
    }
  }

  /**
   * A reference session whose hidden resources have no host view, as a CUDA DEVICE resource has
   * none: the pump must read them into a host buffer and copy it in with writeResource.
   */
  private static final class ViewlessResources implements KernelSession {

    private final KernelSession session;
    private final Set<Integer> hidden;

    ViewlessResources(KernelSession session, Set<Integer> hidden) {
      this.session = session;
      this.hidden = Set.copyOf(hidden);
    }

    @Override
    public MemorySegment resource(int handle) {
      return hidden.contains(handle) ? null : session.resource(handle);
    }

    @Override
    public KernelMemory memory() {
      return session.memory();
    }

    @Override
    public int allocateResource(long byteSize, ResourcePlacement placement) {
      return session.allocateResource(byteSize, placement);
    }

    @Override
    public void writeResource(int handle, long offset, MemorySegment source) {
      session.writeResource(handle, offset, source);
    }

    @Override
    public void readResource(int handle, long offset, MemorySegment target) {
      session.readResource(handle, offset, target);
    }

    @Override
    public byte[] snapshotControl() {
      return session.snapshotControl();
    }

    @Override
    public byte[] snapshotDebugLog() {
      return session.snapshotDebugLog();
    }

    @Override
    public void clearDebugLog() {
      session.clearDebugLog();
    }

    @Override
    public void launch() {
      session.launch();
    }

    @Override
    public void wake() {
      session.wake();
    }

    @Override
    public boolean awaitExit(Duration timeout) {
      return session.awaitExit(timeout);
    }

    @Override
    public void abort() {
      session.abort();
    }

    @Override
    public void checkHealth() {
      session.checkHealth();
    }

    @Override
    public String describe() {
      return session.describe();
    }

    @Override
    public int workerGroups() {
      return session.workerGroups();
    }

    @Override
    public boolean compiledAtStart() {
      return session.compiledAtStart();
    }

    @Override
    public int lanesPerWorkerGroup() {
      return session.lanesPerWorkerGroup();
    }

    @Override
    public void setActiveWorkerGroups(int active) {
      session.setActiveWorkerGroups(active);
    }

    @Override
    public void close() {
      session.close();
    }
  }
}

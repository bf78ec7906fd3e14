package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;
import dev.vyre.io.FileChannelChunkReader;
import dev.vyre.io.IngestPump;
import dev.vyre.io.IoBackends;
import dev.vyre.io.ReadCompletion;
import dev.vyre.io.uring.IoUringChunkReader;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.dfa.Hit;
import dev.vyre.runtime.dfa.HitBufferLayout;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.NaiveMatcher;
import dev.vyre.scan.PatternSet;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The file-read → task pump over real files, with each reader forced in turn. The DFA_STEP and
 * NOP tests are backend-neutral ({@link TestBackends}): a range's hits at their file offsets prove
 * its bytes were in the chunk before its task ran. The tests that need a Java handler (a checksum
 * of the chunk, a task held in flight) run on the reference backend.
 */
class IngestPumpTest {

  private static final int CHUNK = 8192;
  private static final int CHECKSUM = 0x101;
  private static final int HOLD = 0x102;
  private static final long TIMEOUT_S = 30;

  @TempDir Path dir;
  private Megakernel kernel;

  /**
   * The reader a pump is forced to use. FileChannel and plain io_uring reads of cached pages finish
   * before submit returns; io_uring's io-wq workers finish them later, on other cores.
   */
  enum Reader {
    FILE_CHANNEL, IO_URING, IO_URING_WORKERS;

    Function<BufferPool, ChunkReader> factory() {
      if (this == FILE_CHANNEL) {
        return FileChannelChunkReader::new;
      }
      Assumptions.assumeTrue(IoBackends.availability().available(), IoBackends.availability().detail());
      return pool -> new IoUringChunkReader(pool, this == IO_URING_WORKERS);
    }
  }

  @AfterEach
  void stopKernel() {
    if (kernel != null) {
      kernel.close();
    }
  }

  private Megakernel neutralKernel() {
    kernel = Megakernel.builder().backend(TestBackends.selected()).slots(256).singlePriority(Priority.NORMAL)
        .workers(2).bootstrap();
    return kernel;
  }

  /**
   * A reference kernel with two Java opcodes: CHECKSUM finishes DONE when the CRC32 of resource
   * arg0's bytes arg1 .. arg1+arg2 is arg3 and FAULT otherwise; HOLD waits for {@code release}.
   */
  private Megakernel referenceKernel(CountDownLatch started, CountDownLatch release) {
    UserOpcode checksum = UserOpcode.java(CHECKSUM, "checksum", slot -> {
      CRC32 crc = new CRC32();
      crc.update(slot.resource(slot.arg(0)).asSlice(Integer.toUnsignedLong(slot.arg(1)),
          Integer.toUnsignedLong(slot.arg(2))).asByteBuffer());
      return (int) crc.getValue() == slot.arg(3) ? SlotLayout.STATUS_DONE : SlotLayout.STATUS_FAULT;
    });
    kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(256).singlePriority(Priority.NORMAL)
        .workers(2).userOpcode(checksum).userOpcode(HoldingOpcode.of(HOLD, "hold", started, release)).bootstrap();
    return kernel;
  }

  private IngestPump pump(int chunks, Reader reader) {
    return new IngestPump(kernel, kernel.allocateResource((long) chunks * CHUNK, ResourcePlacement.HOST_MAPPED),
        chunks, reader.factory());
  }

  private static Task checksumTask(IngestPump pump, int chunk, byte[] content, int offset, int length) {
    CRC32 crc = new CRC32();
    crc.update(content, offset, length);
    return Task.of(CHECKSUM, pump.resource(), (int) pump.chunkOffset(chunk), length, (int) crc.getValue());
  }

  private Path file(String name, int bytes, long seed) throws IOException {
    byte[] content = new byte[bytes];
    new SplittableRandom(seed).nextBytes(content);
    return Files.write(dir.resolve(name), content);
  }

  private static TaskResult done(CompletableFuture<TaskResult> future) throws Exception {
    TaskResult result = future.get(TIMEOUT_S, TimeUnit.SECONDS);
    assertTrue(result.isDone(), result.toString());
    return result;
  }

  private static PipelineException failure(CompletableFuture<TaskResult> future) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(TIMEOUT_S, TimeUnit.SECONDS));
    PipelineException error = assertInstanceOf(PipelineException.class, e.getCause());
    assertTrue(error.getMessage().contains(". Fix: "), error.getMessage());
    return error;
  }

  @ParameterizedTest
  @EnumSource(Reader.class)
  void dfaStepOnEachRangeFindsItsMatchesAtTheirFileOffsets(Reader reader) throws Exception {
    neutralKernel();
    PatternSet patterns = PatternSet.fromArguments(List.of("needle", "abc", "eda"), false);
    DfaTable table = AhoCorasickCompiler.compile(patterns);
    int dfa = kernel.allocateResource(table.byteSize(), ResourcePlacement.DEVICE);
    kernel.writeResource(dfa, 0, table.segment());
    byte[] content = new byte[200_000];
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) ('a' + random.nextInt(5));
    }
    for (int at = 100; at < content.length - 6; at += 6_007) {
      System.arraycopy("needle".getBytes(StandardCharsets.US_ASCII), 0, content, at, 6);
    }
    Path path = Files.write(dir.resolve("text"), content);
    long capacity = 50_000;
    int hits = kernel.allocateResource(HitBufferLayout.byteSize(capacity), ResourcePlacement.DEVICE);
    kernel.writeResource(hits, 0, MemorySegment.ofArray(new int[] {0, (int) capacity, 0, 0}));

    List<Hit> expected = new ArrayList<>();
    List<CompletableFuture<TaskResult>> results = new ArrayList<>();
    try (IngestPump pump = pump(3, reader)) {
      CompletableFuture<?>[] previous = new CompletableFuture<?>[pump.chunkCount()];
      int range = 0;
      // Overlapping ranges of varying length, each chunk reused as soon as its last task finished:
      // a task that ran before its read would scan the previous range's bytes.
      for (int offset = 0; offset < content.length; offset += 3_001, range++) {
        int length = Math.min(CHUNK - (range % 4) * 1_500, content.length - offset);
        int chunk = range % pump.chunkCount();
        if (previous[chunk] != null) {
          previous[chunk].get(TIMEOUT_S, TimeUnit.SECONDS);
        }
        int[] args = new int[DfaStepArgs.SLOT_ARGS];
        DfaStepArgs.write(args, pump.resource(), pump.chunkOffset(chunk), length, dfa, table.startState(), hits, range,
            offset, 0);
        CompletableFuture<TaskResult> result = pump.submit(path, offset, length, chunk, Task.of(DfaStepArgs.OPCODE, args));
        previous[chunk] = result;
        results.add(result);
        for (Hit hit : NaiveMatcher.findAll(patterns, Arrays.copyOfRange(content, offset, offset + length), range)) {
          expected.add(new Hit(hit.inputId(), hit.start() + offset, hit.patternId()));
        }
      }
      for (CompletableFuture<TaskResult> result : results) {
        done(result);
      }
    }
    MemorySegment stored = Arena.ofAuto().allocate(HitBufferLayout.byteSize(capacity), 4);
    kernel.readResource(hits, 0, stored);
    List<Hit> found = new ArrayList<>(HitBufferLayout.readAll(stored));
    found.sort(null);
    expected.sort(null);
    assertTrue(expected.size() > 1_000, "plenty of matches: " + expected.size());
    assertEquals(expected.size(), HitBufferLayout.cursor(stored));
    assertEquals(expected, found);
  }

  @ParameterizedTest
  @EnumSource(Reader.class)
  void aFailedOrShortReadFailsOnlyItsOwnFuture(Reader reader) throws Exception {
    neutralKernel();
    Path good = file("good", 10_000, 1);
    Path directory = Files.createDirectory(dir.resolve("a-directory"));
    Path gone = file("gone", 100, 2);
    Files.delete(gone);
    try (IngestPump pump = pump(6, reader)) {
      CompletableFuture<TaskResult> fromDirectory = pump.submit(directory, 0, 100, 0, Task.of(Opcodes.NOP));
      CompletableFuture<TaskResult> pastTheEnd = pump.submit(good, 9_950, 100, 1, Task.of(Opcodes.NOP));
      CompletableFuture<TaskResult> wholly = pump.submit(good, 20_000, 100, 2, Task.of(Opcodes.NOP));
      CompletableFuture<TaskResult> missing = pump.submit(gone, 0, 100, 3, Task.of(Opcodes.NOP));
      CompletableFuture<TaskResult> first = pump.submit(good, 0, CHUNK, 4, Task.of(Opcodes.NOP));
      CompletableFuture<TaskResult> last = pump.submit(good, 10_000 - 100, 100, 5, Task.of(Opcodes.NOP));
      failure(fromDirectory);
      assertTrue(failure(pastTheEnd).getMessage().contains("short read: 50 of 100 bytes at offset 9950 of " + good));
      assertTrue(failure(wholly).getMessage().contains("short read: 0 of 100 bytes"));
      failure(missing);
      done(first);
      done(last);
      for (int chunk = 0; chunk < pump.chunkCount(); chunk++) {
        assertFalse(pump.isBusy(chunk), "a chunk is free once its future completed");
      }
      // The chunks of failed reads take the next range.
      done(pump.submit(good, 0, 100, 0, Task.of(Opcodes.NOP)));
    }
  }

  @Test
  void refusesBadRequestsAtOnceChangingNothing() throws Exception {
    neutralKernel();
    Path good = file("good", 100, 3);
    try (IngestPump pump = pump(2, Reader.FILE_CHANNEL)) {
      assertEquals(CHUNK, pump.chunkBytes());
      assertEquals(CHUNK, pump.chunkOffset(1));
      for (int[] bad : new int[][] {{0, 0, 0}, {0, CHUNK + 1, 0}, {-1, 10, 0}, {0, 10, 2}, {0, 10, -1}}) {
        PipelineException e = assertThrows(PipelineException.class,
            () -> pump.submit(good, bad[0], bad[1], bad[2], Task.of(Opcodes.NOP)));
        assertEquals(PipelineException.Variant.InvalidArgument, e.variant(), e.getMessage());
      }
      assertEquals(PipelineException.Variant.InvalidArgument, assertThrows(PipelineException.class,
          () -> pump.submit(good, 0, 10, 0, Task.of(Opcodes.NOP).withTenant(29))).variant());
      assertFalse(pump.isBusy(0));
      done(pump.submit(good, 0, 100, 0, Task.of(Opcodes.NOP)));
    }
    int uneven = kernel.allocateResource(2L * CHUNK + 1, ResourcePlacement.HOST_MAPPED);
    assertThrows(InputException.class, () -> new IngestPump(kernel, uneven, 2));
    int offPage = kernel.allocateResource(3L * 4096, ResourcePlacement.HOST_MAPPED);
    assertThrows(InputException.class, () -> new IngestPump(kernel, offPage, 2));
    assertThrows(InputException.class, () -> new IngestPump(kernel, offPage, 0));
    assertThrows(InputException.class, () -> new IngestPump(kernel, 1_000, 1), "no such resource");
  }

  @Test
  void choosesTheReaderAsTheScanDoes() {
    neutralKernel();
    try (IngestPump pump = new IngestPump(kernel, kernel.allocateResource(CHUNK, ResourcePlacement.HOST_MAPPED), 1)) {
      if (IoBackends.availability().available()) {
        assertEquals("io_uring", pump.ioBackend());
      } else {
        assertEquals("FileChannel (" + IoBackends.availability().detail() + ")", pump.ioBackend());
      }
    }
  }

  @Test
  void aClosedPumpOrAStoppedKernelRefusesSubmissions() throws Exception {
    neutralKernel();
    Path good = file("good", 100, 4);
    IngestPump pump = pump(1, Reader.FILE_CHANNEL);
    pump.close();
    pump.close();
    PipelineException refused = assertThrows(PipelineException.class, () -> pump.submit(good, 0, 10, 0, Task.of(Opcodes.NOP)));
    assertEquals(PipelineException.Variant.Closed, refused.variant());
    assertTrue(refused.getMessage().contains("ingest pump is closed"), refused.getMessage());
    try (IngestPump open = pump(1, Reader.FILE_CHANNEL)) {
      kernel.close();
      KernelException closed = assertThrows(KernelException.class,
          () -> open.submit(good, 0, 10, 0, Task.of(Opcodes.NOP)));
      assertEquals(KernelException.Variant.Closed, closed.variant());
      assertFalse(open.isBusy(0));
    }
  }

  @ParameterizedTest
  @EnumSource(Reader.class)
  void aBusyChunkIsRefusedUntilItsTaskFinishedAndFreeBeforeItsFutureCompletes(Reader reader) throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    referenceKernel(started, release);
    Path path = file("data", 20_000, 5);
    byte[] content = Files.readAllBytes(path);
    try (IngestPump pump = pump(2, reader)) {
      CompletableFuture<TaskResult> held = pump.submit(path, 0, 100, 0, Task.of(HOLD));
      // A stage chained on the future submits into the same chunk: it is free by then.
      CompletableFuture<TaskResult> chained = held.thenCompose(
          result -> pump.submit(path, 5_000, CHUNK, 0, checksumTask(pump, 0, content, 5_000, CHUNK)));
      assertTrue(started.await(TIMEOUT_S, TimeUnit.SECONDS));
      assertTrue(pump.isBusy(0));
      PipelineException busy = assertThrows(PipelineException.class,
          () -> pump.submit(path, 0, 100, 0, checksumTask(pump, 0, content, 0, 100)));
      assertEquals(PipelineException.Variant.Busy, busy.variant());
      assertTrue(busy.getMessage().contains("chunk 0 is busy"), busy.getMessage());
      // Another chunk is taken meanwhile (its future completes after the held task's: tickets retire in order).
      CompletableFuture<TaskResult> other = pump.submit(path, 300, 700, 1, checksumTask(pump, 1, content, 300, 700));
      release.countDown();
      done(held);
      done(chained);
      done(other);
    }
  }

  @ParameterizedTest
  @EnumSource(Reader.class)
  void severalThreadsSubmittingAtOnceGetEveryRangeAndEveryFailureRight(Reader reader) throws Exception {
    referenceKernel(new CountDownLatch(1), new CountDownLatch(0));
    Path path = file("big", 1 << 20, 6);
    byte[] content = Files.readAllBytes(path);
    int threads = 4;
    int chunksPerThread = 4;
    try (IngestPump pump = pump(threads * chunksPerThread, reader)) {
      List<CompletableFuture<List<String>>> outcomes = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        outcomes.add(CompletableFuture.supplyAsync(() -> submitMany(pump, path, content, thread, chunksPerThread),
            command -> Thread.ofPlatform().start(command)));
      }
      for (CompletableFuture<List<String>> outcome : outcomes) {
        assertEquals(List.of(), outcome.get(TIMEOUT_S * 4, TimeUnit.SECONDS));
      }
    }
  }

  /** 150 ranges into the thread's own chunks, every tenth past the end of the file; what went wrong. */
  private static List<String> submitMany(IngestPump pump, Path path, byte[] content, int thread, int chunks) {
    SplittableRandom random = new SplittableRandom(thread);
    List<String> wrong = new ArrayList<>();
    List<CompletableFuture<String>> previous = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      if (i >= chunks) {
        // The chunk's previous range, whose future completed after the chunk was freed.
        addIfWrong(wrong, previous.get(i - chunks).join());
      }
      int chunk = thread * chunks + i % chunks;
      boolean pastTheEnd = i % 10 == 9;
      int length = 1 + random.nextInt(CHUNK);
      int offset = pastTheEnd ? content.length - length / 2 : random.nextInt(content.length - length + 1);
      Task task = pastTheEnd ? Task.of(Opcodes.NOP) : checksumTask(pump, chunk, content, offset, length);
      String range = "thread " + thread + " range " + i + " at " + offset + "+" + length + ": ";
      previous.add(pump.submit(path, offset, length, chunk, task).handle((result, error) ->
          pastTheEnd == (error != null) && (error != null || result.isDone()) ? null : range + result + " / " + error));
    }
    for (int i = Math.max(0, previous.size() - chunks); i < previous.size(); i++) {
      addIfWrong(wrong, previous.get(i).join());
    }
    return wrong;
  }

  private static void addIfWrong(List<String> wrong, String verdict) {
    if (verdict != null) {
      wrong.add(verdict);
    }
  }

  @Test
  void aReaderThatFailsStopsThePumpAndFailsWhatIsLeftWithTheCause() throws Exception {
    neutralKernel();
    Path good = file("good", 100, 7);
    PipelineException injected = PipelineException.backend("injected poll failure. Fix: none, it is a test");
    IngestPump pump = new IngestPump(kernel, kernel.allocateResource(2L * CHUNK, ResourcePlacement.HOST_MAPPED), 2,
        pool -> new FailingPoll(new FileChannelChunkReader(pool), injected));
    CompletableFuture<TaskResult> read = pump.submit(good, 0, 100, 0, Task.of(Opcodes.NOP));
    PipelineException stopped = failure(read);
    assertTrue(stopped.getMessage().contains("the ingest pump stopped after its reader failed"), stopped.getMessage());
    assertEquals(injected, stopped.getCause());
    assertEquals(injected, assertThrows(PipelineException.class,
        () -> pump.submit(good, 0, 100, 1, Task.of(Opcodes.NOP))).getCause());
    pump.close();
  }

  /** A reader whose poll throws once a read is in flight, as a broken ring would. */
  private record FailingPoll(ChunkReader reader, PipelineException error) implements ChunkReader {

    @Override
    public ReadCompletion poll() {
      if (reader.inFlight() > 0) {
        throw error;
      }
      return reader.poll();
    }

    @Override
    public String backend() {
      return reader.backend();
    }

    @Override
    public BufferPool pool() {
      return reader.pool();
    }

    @Override
    public int openFile(Path file) {
      return reader.openFile(file);
    }

    @Override
    public void closeFile(int file) {
      reader.closeFile(file);
    }

    @Override
    public void submit(int file, long offset, int length, int buffer, long into, long data) {
      reader.submit(file, offset, length, buffer, into, data);
    }

    @Override
    public int inFlight() {
      return reader.inFlight();
    }

    @Override
    public ReadCompletion await() {
      return reader.await();
    }

    @Override
    public void close() {
      reader.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Reader.class)
  void closeDrainsReadsInFlightAndLeavesNoFileOrRingOpen(Reader reader) throws Exception {
    Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd");
    referenceKernel(new CountDownLatch(1), new CountDownLatch(0));
    // More files than the io_uring reader's file slots hold, all in flight at once.
    int chunks = IoUringChunkReader.MAX_OPEN_FILES * 2;
    List<Path> files = new ArrayList<>();
    List<byte[]> contents = new ArrayList<>();
    for (int i = 0; i < chunks; i++) {
      files.add(file("f" + i, CHUNK, 100 + i));
      contents.add(Files.readAllBytes(files.get(i)));
    }
    long ringsBefore = openFds().stream().filter(target -> target.contains("io_uring")).count();
    List<CompletableFuture<TaskResult>> results = new ArrayList<>();
    IngestPump pump = pump(chunks, reader);
    for (int i = 0; i < chunks; i++) {
      results.add(pump.submit(files.get(i), 0, CHUNK, i, checksumTask(pump, i, contents.get(i), 0, CHUNK)));
    }
    pump.close();
    for (CompletableFuture<TaskResult> result : results) {
      done(result);
    }
    List<String> open = openFds();
    String inDir = dir.toRealPath().toString();
    assertEquals(List.of(), open.stream().filter(target -> target.startsWith(inDir)).toList());
    assertEquals(ringsBefore, open.stream().filter(target -> target.contains("io_uring")).count());
  }

  /** What each of this process's file descriptors names. */
  private static List<String> openFds() throws IOException {
    List<String> targets = new ArrayList<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
      for (Path fd : fds) {
        try {
          targets.add(Files.readSymbolicLink(fd).toString());
        } catch (IOException e) {
          // The listing's own descriptor, closed by the time it is read.
        }
      }
    }
    return targets;
  }
}

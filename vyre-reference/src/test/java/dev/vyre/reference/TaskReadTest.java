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
import dev.vyre.io.LoadOpcode;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.SlotContext;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.tenant.Tenant;
import dev.vyre.runtime.tenant.TenantQuota;
import dev.vyre.runtime.tenant.TenantRegistry;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Reads a task asks the host for (docs/PROTOCOL.md, "Reads a task asks for"): a handler publishes
 * a read into the IO queue, yields until the pump has put the bytes into its resource, and goes on
 * with them. Backend-neutral: on CUDA (scripts/gpu-check.sh) the same opcode runs as CUDA C through
 * {@code vyre_io_read/status/release}. Every test runs with the pump on each read path.
 */
class TaskReadTest {

  /**
   * args: 0 source, 1 destination resource, 2 file offset, 3 bytes, 4 control word for the byte sum (0: none), 5 a control
   * word that must be non-zero before the task lets its IO slot go (0: none), 11 state.
   */
  private static final int READ_AND_SUM = 0x120;
  private static final int STATE_ARG = 11;
  private static final int FIRST_RESULT_WORD = 170;
  private static final int LOAD = 0x121;

  private static final UserOpcode OPCODE = UserOpcode.both(READ_AND_SUM, "read-and-sum", TaskReadTest::readAndSum, """
      if (args[11] == 0u) {
        int io = vyre_io_read(a, args[0], args[1], args[2], args[3], slot);
        if (io >= 0) args[11] = (unsigned)io + 1u;
        status = VYRE_STATUS_YIELD;
      } else {
        unsigned io = args[11] - 1u;
        unsigned verdict = vyre_io_status(a, io);
        if (verdict != VYRE_IO_OK && verdict != VYRE_IO_ERROR) {
          status = VYRE_STATUS_YIELD;
        } else if (args[5] != 0u && vyre_read(a, args[5]) == 0u) {
          status = VYRE_STATUS_YIELD;
        } else {
          const VyreResource* r = vyre_resource(a, args[1]);
          if (verdict == VYRE_IO_ERROR || r == nullptr || vyre_resource_bytes(r) < args[3]) {
            status = VYRE_STATUS_FAULT;
          } else {
            const unsigned char* bytes = (const unsigned char*)r->ptr;
            unsigned sum = 0u;
            for (unsigned i = 0; i < args[3]; i++) sum += bytes[i];
            if (args[4] != 0u) vyre_write(a, args[4], sum);
          }
          vyre_io_release(a, io);
        }
      }
      """);

  /** The Java side of {@link #OPCODE}, step for step. */
  private static int readAndSum(SlotContext slot) {
    int state = slot.arg(STATE_ARG);
    if (state == 0) {
      int io = slot.ioRead(slot.arg(0), slot.arg(1), Integer.toUnsignedLong(slot.arg(2)), slot.arg(3), slot.slot());
      if (io >= 0) {
        slot.setArg(STATE_ARG, io + 1);
      }
      return SlotLayout.STATUS_YIELD;
    }
    int io = state - 1;
    int verdict = slot.ioStatus(io);
    if (verdict != IoQueueLayout.STATUS_OK && verdict != IoQueueLayout.STATUS_ERROR
        || slot.arg(5) != 0 && Words.getVolatile(slot.control(), slot.arg(5)) == 0) {
      return SlotLayout.STATUS_YIELD;
    }
    try {
      MemorySegment resource = slot.resource(slot.arg(1));
      if (verdict == IoQueueLayout.STATUS_ERROR || resource == null || resource.byteSize() < Integer.toUnsignedLong(slot.arg(3))) {
        return SlotLayout.STATUS_FAULT;
      }
      int sum = 0;
      for (long i = 0; i < Integer.toUnsignedLong(slot.arg(3)); i++) {
        sum += resource.get(ValueLayout.JAVA_BYTE, i) & 0xFF;
      }
      if (slot.arg(4) != 0) {
        Words.setVolatile(slot.control(), slot.arg(4), sum);
      }
      return SlotLayout.STATUS_DONE;
    } finally {
      slot.ioRelease(io);
    }
  }

  @TempDir
  Path dir;
  private Path file;
  private byte[] content;
  private Megakernel kernel;
  private ReadPath readPath;

  @BeforeEach
  void writeFile() throws Exception {
    content = new byte[1 << 20];
    new Random(7).nextBytes(content);
    file = Files.write(dir.resolve("data.bin"), content);
  }

  /** A kernel whose pump reads on {@code path}; each test runs on both. */
  private void bootstrap(ReadPath path) {
    kernel = Megakernel.builder().backend(TestBackends.selected()).slots(256).tenants(3).observables(64)
        .singlePriority(Priority.NORMAL).workers(2).userOpcode(OPCODE).userOpcode(LoadOpcode.of(LOAD))
        .bootstrap();
    readPath = path;
  }

  /** The kernel's pump, started on the first call, reading on the path {@link #bootstrap} chose. */
  private IoRequestPump pump() {
    return IoRequestPump.of(kernel, readPath);
  }

  @AfterEach
  void stop() {
    if (kernel != null) {
      kernel.close();
    }
  }

  private TaskResult run(int source, int destination, long offset, int bytes, int resultWord) throws Exception {
    return kernel.submit(Task.of(READ_AND_SUM, source, destination, (int) offset, bytes, resultWord))
        .get(20, TimeUnit.SECONDS);
  }

  private long word(int index) {
    return Integer.toUnsignedLong(MemorySegment.ofArray(kernel.controlSnapshot()).get(ValueLayout.JAVA_INT_UNALIGNED, 4L * index));
  }

  private long sum(long offset, int bytes) {
    long sum = 0;
    for (int i = 0; i < bytes; i++) {
      sum += content[(int) offset + i] & 0xFF;
    }
    return sum & 0xFFFF_FFFFL;
  }

  private byte[] resourceBytes(int handle, int bytes) {
    byte[] copy = new byte[bytes];
    kernel.readResource(handle, 0, MemorySegment.ofArray(copy));
    return copy;
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void aTaskGoesOnWithTheBytesItAskedFor(ReadPath path) throws Exception {
    bootstrap(path);
    int source = pump().open(file);
    assertEquals(1, source, "source ids start at 1");
    assertEquals(path == ReadPath.IO_URING && IoBackends.availability().available() ? ReadPath.IO_URING : ReadPath.FILE_CHANNEL,
        pump().readPath());
    int mapped = kernel.allocateResource(16_384, ResourcePlacement.HOST_MAPPED);
    int device = kernel.allocateResource(70_000, ResourcePlacement.DEVICE);
    long[][] reads = {{mapped, 0, 4096}, {mapped, 123_457, 10_000}, {device, 500_001, 65_536}, {device, content.length - 999, 999}};
    for (int i = 0; i < reads.length; i++) {
      int handle = (int) reads[i][0];
      long offset = reads[i][1];
      int bytes = (int) reads[i][2];
      TaskResult result = run(source, handle, offset, bytes, FIRST_RESULT_WORD + i);
      assertTrue(result.isDone(), "read " + i + ": " + result);
      assertEquals(sum(offset, bytes), word(FIRST_RESULT_WORD + i), "read " + i + ": the handler summed the bytes it asked for");
      assertArrayEquals(java.util.Arrays.copyOfRange(content, (int) offset, (int) offset + bytes), resourceBytes(handle, bytes),
          "read " + i + ": the file's bytes at the start of the resource");
    }
    IoRequestPump.Stats stats = pump().stats();
    assertEquals(reads.length, stats.completed());
    assertEquals(0, stats.failed());
    assertNull(stats.lastFailure());
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void theLoadOpcodeReadsPastFourGibibytes(ReadPath path) throws Exception {
    bootstrap(path);
    // A sparse file: the offset's high word must reach the pump on both backends.
    Path sparse = dir.resolve("sparse.bin");
    long offset = (5L << 30) + 12_345;
    byte[] tail = java.util.Arrays.copyOf(content, 3000);
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(sparse,
        java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
      channel.write(java.nio.ByteBuffer.wrap(tail), offset);
    }
    int source = pump().open(sparse);
    int handle = kernel.allocateResource(tail.length, ResourcePlacement.DEVICE);
    TaskResult result = kernel.submit(LoadOpcode.task(LOAD, source, handle, offset, tail.length)).get(20, TimeUnit.SECONDS);
    assertTrue(result.isDone(), result.toString());
    assertArrayEquals(tail, resourceBytes(handle, tail.length));
    TaskResult pastTheEnd = kernel.submit(LoadOpcode.task(LOAD, source, handle, offset + 1, tail.length)).get(20, TimeUnit.SECONDS);
    assertEquals(FaultReason.HANDLER_FAILED, pastTheEnd.fault(), "a failed load faults its task");
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void moreTasksThanIoSlotsEachGetTheirBytes(ReadPath path) throws Exception {
    bootstrap(path);
    int source = pump().open(file);
    int tasks = 3 * IoQueueLayout.IO_SLOT_COUNT;
    int bytes = 512;
    List<Integer> handles = new ArrayList<>();
    List<CompletableFuture<TaskResult>> futures = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      int handle = kernel.allocateResource(bytes, i % 2 == 0 ? ResourcePlacement.HOST_MAPPED : ResourcePlacement.DEVICE);
      handles.add(handle);
      futures.add(kernel.submit(Task.of(READ_AND_SUM, source, handle, i * 4099, bytes, 0)));
    }
    for (int i = 0; i < tasks; i++) {
      TaskResult result = futures.get(i).get(30, TimeUnit.SECONDS);
      assertTrue(result.isDone(), "task " + i + ": " + result);
      assertArrayEquals(java.util.Arrays.copyOfRange(content, i * 4099, i * 4099 + bytes), resourceBytes(handles.get(i), bytes), "task " + i);
    }
    assertEquals(tasks, pump().stats().completed());
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void aReadThatCannotBeServedFailsItsTaskAndThePumpSaysWhy(ReadPath path) throws Exception {
    bootstrap(path);
    int source = pump().open(file);
    int handle = kernel.allocateResource(4096, ResourcePlacement.HOST_MAPPED);
    TaskResult pastTheEnd = run(source, handle, content.length - 100, 200, 0);
    assertEquals(FaultReason.HANDLER_FAILED, pastTheEnd.fault(), "the handler faults its task on ERROR");
    assertTrue(pump().stats().lastFailure().contains("the file ends at byte " + content.length), pump().stats().lastFailure());
    TaskResult notOpen = run(source + 1, handle, 0, 16, 0);
    assertEquals(FaultReason.HANDLER_FAILED, notOpen.fault());
    assertTrue(pump().stats().lastFailure().contains("source 2 is not open"), pump().stats().lastFailure());
    TaskResult tooBig = run(source, handle, 0, 8192, 0);
    assertEquals(FaultReason.HANDLER_FAILED, tooBig.fault());
    assertTrue(pump().stats().lastFailure().contains("do not fit resource " + handle), pump().stats().lastFailure());
    assertEquals(3, pump().stats().failed());
    assertTrue(run(source, handle, 0, 16, FIRST_RESULT_WORD).isDone(), "a failed read leaves the pump serving");
    assertEquals(sum(0, 16), word(FIRST_RESULT_WORD));
  }

  /**
   * The kernel holds a tenant's reads to its read quota (docs/PROTOCOL.md, "Tenant quotas"): one larger
   * than the quota faults, one that does not fit beside a read in flight waits for it, and another
   * tenant's reads go on meanwhile.
   */
  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void aTenantsReadsAreHeldToItsReadQuotaWhileAnotherTenantsAreNot(ReadPath path) throws Exception {
    bootstrap(path);
    int source = pump().open(file);
    TenantRegistry registry = TenantRegistry.of(kernel);
    Tenant bounded = registry.registerWithQuotas("bounded", TenantQuota.bounded(TenantQuota.UNBOUNDED, 4096, TenantQuota.UNBOUNDED));
    Tenant free = registry.register("free");
    int holdWord = FIRST_RESULT_WORD + 10;
    int[] handles = new int[4];
    for (int i = 0; i < handles.length; i++) {
      handles[i] = kernel.allocateResource(8192, ResourcePlacement.DEVICE);
    }

    TaskResult tooLarge = kernel.submit(Task.of(READ_AND_SUM, source, handles[0], 0, 8192, 0).withTenant(bounded.id()))
        .get(20, TimeUnit.SECONDS);
    assertEquals(SlotStatus.FAULT, tooLarge.status());
    assertEquals(FaultReason.TENANT_QUOTA_EXCEEDED, tooLarge.fault());
    assertEquals(1, word(ControlLayout.TENANT_QUOTA_REFUSALS));
    assertEquals(0, pump().stats().completed(), "the refused read never reached the host");

    CompletableFuture<TaskResult> holder = kernel.submit(
        Task.of(READ_AND_SUM, source, handles[1], 0, 4096, FIRST_RESULT_WORD, holdWord).withTenant(bounded.id()));
    awaitTrue(() -> pump().stats().completed() == 1, "the holder's read");
    CompletableFuture<TaskResult> waiting = kernel.submit(
        Task.of(READ_AND_SUM, source, handles[2], 4096, 4096, FIRST_RESULT_WORD + 1).withTenant(bounded.id()));
    awaitTrue(() -> word(ControlLayout.TENANT_QUOTA_REFUSALS) > 1, "the second read refused while the first holds the quota");
    // Its future completes only after the earlier tickets retire, in ticket order: watch its result instead.
    CompletableFuture<TaskResult> other = kernel.submit(
        Task.of(READ_AND_SUM, source, handles[3], 8192, 8192, FIRST_RESULT_WORD + 2).withTenant(free.id()));
    awaitTrue(() -> word(FIRST_RESULT_WORD + 2) == sum(8192, 8192), "another tenant's read, which nothing holds");
    assertEquals(0, word(FIRST_RESULT_WORD + 1), "the bounded tenant's second read waits while its first holds the quota");
    assertEquals(2, pump().stats().completed(), "the holder's read and the other tenant's: the waiting one never reached the host");

    assertTrue(kernel.submit(Task.of(Opcodes.STORE_U32, 1, holdWord)).get(20, TimeUnit.SECONDS).isDone());
    assertTrue(holder.get(20, TimeUnit.SECONDS).isDone());
    assertTrue(waiting.get(20, TimeUnit.SECONDS).isDone(), "held, not faulted: it read once the first let go");
    assertTrue(other.get(20, TimeUnit.SECONDS).isDone());
    assertEquals(sum(0, 4096), word(FIRST_RESULT_WORD));
    assertEquals(sum(4096, 4096), word(FIRST_RESULT_WORD + 1));
  }

  private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
      Thread.sleep(1);
    }
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void aZeroByteRequestOfSourceZeroIsAHandshake(ReadPath path) throws Exception {
    bootstrap(path);
    pump();
    int handle = kernel.allocateResource(64, ResourcePlacement.HOST_MAPPED);
    assertTrue(run(0, handle, 0, 0, FIRST_RESULT_WORD).isDone());
    assertEquals(0, pump().stats().failed());
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void openingAMissingFileSaysHowToFixIt(ReadPath path) {
    bootstrap(path);
    InputException e = assertThrows(InputException.class, () -> pump().open(dir.resolve("missing.bin")));
    assertTrue(e.getMessage().contains("Fix:"), e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void shutdownStopsThePump(ReadPath path) {
    bootstrap(path);
    pump();
    assertTrue(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("vyre-io-pump") && t.isAlive()));
    kernel.close();
    assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("vyre-io-pump") && t.isAlive()),
        "no pump thread is left after shutdown");
  }
}

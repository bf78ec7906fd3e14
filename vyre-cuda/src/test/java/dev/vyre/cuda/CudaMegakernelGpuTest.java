package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.reference.ReferenceBackend;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.PackedSlotCodec;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The live CUDA megakernel: parity with the reference backend, faults, the pipeline cache, exactly-once at speed. */
@Tag("gpu")
class CudaMegakernelGpuTest {

  private static final UserOpcode MIX = UserOpcode.both(0x200, "mix", ctx -> {
    int target = ControlLayout.OBSERVABLE_BASE + 20 + (ctx.arg(0) & 7);
    Words.getAndAdd(ctx.control(), target, ctx.arg(1) * 3 + 1);
    return ctx.arg(2) == 0 ? SlotLayout.STATUS_DONE : SlotLayout.STATUS_FAULT;
  }, """
      vyre_add(a, 160u + 20u + (args[0] & 7u), args[1] * 3u + 1u);
      status = args[2] == 0u ? VYRE_STATUS_DONE : VYRE_STATUS_FAULT;
      """);

  /** A random program over every built-in, packed slots, tenants and a JIT user opcode. */
  private static List<Task> randomProgram(long seed, int length) {
    SplittableRandom random = new SplittableRandom(seed);
    List<Task> tasks = new ArrayList<>();
    for (int i = 0; i < length; i++) {
      int tenant = random.nextInt(4);
      Priority priority = Priority.ofLevel(random.nextInt(5));
      int word = 160 + random.nextInt(40);
      int observable = random.nextInt(36);
      Task task = switch (random.nextInt(11)) {
        case 0 -> Task.of(Opcodes.NOP);
        case 1 -> Task.of(Opcodes.STORE_U32, random.nextInt(), word);
        case 2 -> Task.of(Opcodes.ATOMIC_ADD, random.nextInt(1000), word);
        case 3 -> Task.of(Opcodes.LOAD_U32, 160 + random.nextInt(32), observable);
        // CAS on tenant masks and quotas (words 3..35): word 0 would be a SHUTDOWN, 1..2 DONE_COUNT and the mask pointer.
        case 4 -> Task.of(Opcodes.COMPARE_SWAP, 3 + random.nextInt(29), random.nextInt(3), random.nextInt(100));
        case 5 -> Task.of(Opcodes.MEMCPY, 160 + random.nextInt(16), 176 + random.nextInt(20), random.nextInt(6));
        case 6 -> Task.of(Opcodes.BATCH_FENCE, i, random.nextInt());
        case 7 -> Task.of(Opcodes.PRINTF, i, random.nextInt(), random.nextInt());
        case 8 -> Task.of(Opcodes.PACKED_SLOT, PackedSlotCodec.encode(
            new PackedSlotCodec.PackedOp(Opcodes.ATOMIC_ADD, new int[] {1, word}),
            new PackedSlotCodec.PackedOp(Opcodes.STORE_U32, new int[] {i, 160 + random.nextInt(40)}),
            new PackedSlotCodec.PackedOp(Opcodes.NOP, new int[0])));
        case 9 -> Task.of(0x200, random.nextInt(), random.nextInt(50), random.nextInt(8) == 0 ? 1 : 0);
        default -> Task.of(Opcodes.DFA_STEP, 0, 0);
      };
      tasks.add(task.withTenant(tenant).withPriority(priority));
    }
    return tasks;
  }

  @Test
  void cudaMatchesTheReferenceBackendWordForWord() throws Exception {
    for (long seed = 1; seed <= 3; seed++) {
      List<Task> program = randomProgram(seed, 1500);
      ParityRunner.Outcome cpu = ParityRunner.run(new ReferenceBackend(), program, List.of(MIX), 3);
      ParityRunner.Outcome gpu = ParityRunner.run(new CudaBackend(), program, List.of(MIX), 3);
      assertEquals(cpu.tasks(), gpu.tasks(), "per-task status, fault and observable, seed " + seed);
      assertArrayEquals(cpu.control(), gpu.control(), "final control block, seed " + seed + ": first difference at word "
          + firstDifference(cpu.control(), gpu.control()));
      assertArrayEquals(cpu.debugLog(), gpu.debugLog(), "PRINTF log, seed " + seed);
    }
  }

  private static int firstDifference(int[] a, int[] b) {
    return Arrays.mismatch(a, b);
  }

  @Test
  void tenMillionTasksFromFourPublishersCompleteExactlyOnce() throws Exception {
    int publishers = 4;
    long perPublisher = 2_500_000;
    try (Megakernel kernel = Megakernel.builder().backend(new CudaBackend()).slots(65536).tenants(4).observables(16)
        .singlePriority(Priority.NORMAL).publishTimeout(Duration.ofSeconds(60)).bootstrap()) {
      Thread[] threads = new Thread[publishers];
      for (int p = 0; p < publishers; p++) {
        int publisher = p;
        threads[p] = Thread.ofPlatform().start(() -> {
          TaskBatch batch = new TaskBatch(512);
          for (long i = 0; i < perPublisher; i += batch.capacity()) {
            batch.clear();
            for (int k = 0; k < batch.capacity(); k++) {
              batch.add3(publisher, Opcodes.ATOMIC_ADD, 1, ControlLayout.OBSERVABLE_BASE + publisher, 0);
            }
            kernel.publish(batch);
          }
        });
      }
      for (Thread thread : threads) {
        thread.join();
      }
      assertTrue(kernel.drain(Duration.ofSeconds(120)), kernel.summary());
      long expected = publishers * ((perPublisher + 511) / 512 * 512);
      assertEquals(expected, kernel.doneCount(), "DONE_COUNT: nothing lost, nothing doubled");
      long sum = 0;
      for (int p = 0; p < publishers; p++) {
        assertEquals(expected / publishers, kernel.observable(p), "adds of publisher " + p);
        sum += kernel.observable(p);
      }
      assertEquals(expected, sum);
      assertEquals(expected, kernel.stats().done());
    }
  }

  @Test
  void thePipelineCacheSkipsNvrtcAndRebuildsACorruptEntry(@TempDir Path cache) throws Exception {
    String previous = System.getProperty("vyre.cache.dir");
    System.setProperty("vyre.cache.dir", cache.toString());
    try {
      UserOpcode unique = UserOpcode.both(0x400 + (int) (System.nanoTime() & 0xFF), "unique", ctx -> 3, "status = VYRE_STATUS_DONE;");
      assertTrue(describe(unique).contains("compiled by NVRTC"));
      assertTrue(describe(unique).contains("from the pipeline cache"));
      try (var files = Files.list(cache)) {
        for (Path entry : files.toList()) {
          byte[] bytes = Files.readAllBytes(entry);
          bytes[bytes.length / 2] ^= 0x5A;
          Files.write(entry, bytes);
        }
      }
      assertTrue(describe(unique).contains("recompiled (corrupt cache entry)"));
    } finally {
      if (previous == null) {
        System.clearProperty("vyre.cache.dir");
      } else {
        System.setProperty("vyre.cache.dir", previous);
      }
    }
  }

  private static String describe(UserOpcode opcode) {
    try (Megakernel kernel = Megakernel.builder().backend(new CudaBackend()).slots(64).userOpcode(opcode).bootstrap()) {
      return kernel.describe();
    }
  }

  @Test
  void idleKernelKeepsHeartbeatSlowAndRoundTripsStillWork() throws Exception {
    try (Megakernel kernel = Megakernel.builder().backend(new CudaBackend()).slots(64).bootstrap()) {
      // After 50 ms of quiet the scout polls about once per millisecond (deep idle), one heartbeat
      // per poll; without deep idle it would be ~20,000 polls a second (one per 50 us).
      Thread.sleep(500);
      MemorySegment before = MemorySegment.ofArray(kernel.controlSnapshot());
      Thread.sleep(1000);
      MemorySegment after = MemorySegment.ofArray(kernel.controlSnapshot());
      long beats = Integer.toUnsignedLong(after.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * ControlLayout.HEARTBEAT))
          - Integer.toUnsignedLong(before.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * ControlLayout.HEARTBEAT));
      assertTrue(beats > 0 && beats <= 5_000, "idle scout polls in 1 s: " + beats);
      AtomicLong total = new AtomicLong();
      for (int i = 0; i < 100; i++) {
        total.addAndGet(kernel.submit(Task.of(Opcodes.ATOMIC_ADD, 1, 160)).get(10, TimeUnit.SECONDS).isDone() ? 1 : 0);
      }
      assertEquals(100, total.get());
      assertEquals(100, kernel.observable(0));
    }
  }
}

package dev.vyre.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.RepeatedTest;

/**
 * The whole host against a {@link ScriptedBackend} whose kernel finishes tasks as fast as a thread
 * can, so that publishers wait for the retire step, as on a GPU: waiting publishers verify chunks
 * ahead of the turn holder, and every task retires, and is counted, once. (The retire step alone,
 * in heap memory, is {@code dev.vyre.runtime.ring.RetireStepTest}.)
 */
class RetireAheadHostTest {

  /** Four chunks of {@code VerifiedChunks.TICKETS} (256) tickets, so that publishers wait for room. */
  private static final int SMALL_RING = 4 * 256;
  private static final int PUBLISHERS = 4;
  private static final int TASKS_EACH = 200_000;
  /** Argument 0 of a task the scripted kernel ends as FAULT, and as WAIT_IO. */
  private static final int ENDS_FAULT = 1;
  private static final int ENDS_WAIT_IO = 2;

  @RepeatedTest(3)
  void publishersWaitingForRoomVerifyAheadAndEveryTaskRetiresOnce() throws Exception {
    ScriptedBackend backend = new ScriptedBackend();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    ConcurrentLinkedQueue<CompletableFuture<TaskResult>> futures = new ConcurrentLinkedQueue<>();
    AtomicLong faults = new AtomicLong();
    AtomicLong waitIo = new AtomicLong();
    try (Megakernel kernel = Megakernel.builder().backend(backend).slots(SMALL_RING).singlePriority(Priority.NORMAL)
        .publishTimeout(Duration.ofSeconds(60)).bootstrap()) {
      Thread device = Thread.ofPlatform().daemon().start(() -> playKernel(backend.session(), stop));
      List<Thread> publishers = new ArrayList<>();
      for (int p = 0; p < PUBLISHERS; p++) {
        long seed = p;
        publishers.add(Thread.ofPlatform().uncaughtExceptionHandler((thread, error) -> failed.compareAndSet(null, error)).start(() -> {
          SplittableRandom random = new SplittableRandom(seed);
          TaskBatch batch = new TaskBatch(SMALL_RING / 2);
          int published = 0;
          while (published < TASKS_EACH) {
            int roll = random.nextInt(100);
            if (roll == 0) {
              // A future keeps its chunk from being verified. Its callback runs inside the retire
              // pass and dawdles there, as a lone retire thread is slow beside a GPU: the waiting
              // publishers verify ahead meanwhile.
              int ends = random.nextInt(4) == 0 ? ENDS_FAULT : 0;
              CompletableFuture<TaskResult> future = kernel.submit(Task.of(Opcodes.NOP, ends));
              future.thenRun(() -> LockSupport.parkNanos(200_000));
              futures.add(future);
              faults.addAndGet(ends == ENDS_FAULT ? 1 : 0);
              published++;
              continue;
            }
            batch.clear().priority(Priority.NORMAL);
            int size = Math.min(1 + random.nextInt(SMALL_RING / 2), TASKS_EACH - published);
            for (int i = 0; i < size; i++) {
              int ends = switch (random.nextInt(5000)) {
                case 0 -> ENDS_FAULT;
                case 1 -> ENDS_WAIT_IO;
                default -> 0;
              };
              faults.addAndGet(ends == ENDS_FAULT ? 1 : 0);
              waitIo.addAndGet(ends == ENDS_WAIT_IO ? 1 : 0);
              batch.add3(0, Opcodes.NOP, ends, 0, 0);
            }
            long first = kernel.publish(batch);
            published += size;
            if (roll < 3 && !kernel.await(Megakernel.batchTicket(first, size - 1), Duration.ofSeconds(60))) {
              throw new AssertionError("a batch did not finish: " + kernel.summary());
            }
          }
        }));
      }
      for (Thread publisher : publishers) {
        publisher.join();
      }
      if (failed.get() != null) {
        throw new AssertionError("a publisher failed", failed.get());
      }
      assertTrue(kernel.drain(Duration.ofSeconds(60)), kernel.summary());
      stop.set(true);
      device.join();
      long futureFaults = 0;
      for (CompletableFuture<TaskResult> future : futures) {
        futureFaults += future.get(60, TimeUnit.SECONDS).status() == SlotStatus.FAULT ? 1 : 0;
      }
      long tasks = (long) PUBLISHERS * TASKS_EACH;
      Megakernel.Stats stats = kernel.stats();
      assertEquals(tasks, stats.published());
      assertEquals(tasks, stats.retired(), "every ticket retired");
      assertEquals(faults.get(), stats.faults(), "each FAULT counted once");
      assertEquals(waitIo.get(), stats.waitIo(), "each WAIT_IO counted once");
      assertEquals(tasks - faults.get() - waitIo.get(), stats.done(), "each DONE counted once");
      assertTrue(futureFaults > 0 && futureFaults < futures.size(), "the futures saw how their own tasks ended");
      assertTrue(stats.verifiedAhead() > 0, "waiting publishers verified chunks ahead: " + stats);
    }
  }

  /**
   * The kernel: finishes every committed ticket of the NORMAL level at once, in order, as {@link
   * #ENDS_FAULT} or {@link #ENDS_WAIT_IO} in argument 0 says, else DONE.
   */
  private static void playKernel(ScriptedBackend.ScriptedSession session, AtomicBoolean stop) {
    MemorySegment control = session.memory().control();
    MemorySegment ring = session.memory().ring();
    int level = Priority.NORMAL.level();
    long claimed = 0;
    while (!stop.get()) {
      long bell = Integer.toUnsignedLong(Words.getAcquire(control, ControlLayout.publishSeqWord(level)));
      for (; claimed < bell; claimed++) {
        int slot = (int) (claimed % SMALL_RING);
        int ends = Words.get(ring, SlotLayout.argWord(slot, 0));
        session.finish(slot, ends == ENDS_FAULT ? SlotLayout.STATUS_FAULT
            : ends == ENDS_WAIT_IO ? SlotLayout.STATUS_WAIT_IO : SlotLayout.STATUS_DONE);
      }
      // What the watchdog takes for progress.
      Words.setLongOpaque(control, ControlLayout.claimSeqWord(level), claimed);
      Thread.onSpinWait();
    }
  }
}

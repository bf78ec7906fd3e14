package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.KernelException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.wire.Opcodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Threads that use a kernel while another thread shuts it down. Shutdown ends the session's views
 * of its memory before the memory is freed, so a thread that picked up a view just before then
 * gets an IllegalStateException from its next access (on CUDA that access used to read the freed
 * pinned memory, which can crash the JVM); every public call must turn that into an answer or a
 * typed {@code Closed}. The threads outnumber a small machine's cores, so that some are preempted
 * between picking up a view and using it; where in each round the race lands is left to timing
 * (on the old code, the reference backend let an IllegalStateException out in the first rounds).
 * Backend-neutral: scripts/gpu-check.sh runs it on CUDA.
 */
class MegakernelShutdownRaceTest {

  private static final int ROUNDS = 40;

  @Test
  void callsRacingShutdownGetAnswersOrClosedNeverAnAccessToEndedMemory() throws Exception {
    List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
    for (int round = 0; round < ROUNDS && unexpected.isEmpty(); round++) {
      Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(64).workers(1)
          .singlePriority(Priority.NORMAL).publishTimeout(Duration.ofSeconds(5)).bootstrap();
      AtomicBoolean stop = new AtomicBoolean();
      TaskBatch batch = new TaskBatch(4).priority(Priority.NORMAL).add(0, Opcodes.NOP).add(0, Opcodes.NOP);
      List<Runnable> loops = List.of(
          () -> kernel.await(kernel.publish(Task.of(Opcodes.NOP)), Duration.ofMillis(2)),
          () -> kernel.submit(Task.of(Opcodes.NOP)),
          () -> {
            kernel.publish(batch);
            kernel.drain(Duration.ofMillis(2));
          },
          () -> {
            kernel.isKernelRunning();
            kernel.summary();
            kernel.ringSnapshot();
            kernel.isTenantAuthorized(0);
          },
          () -> {
            kernel.isKernelRunning();
            kernel.doneCount();
            kernel.setTenantAuthorized(0, true);
          });
      CountDownLatch running = new CountDownLatch(loops.size());
      List<Thread> threads = new ArrayList<>();
      for (Runnable loop : loops) {
        threads.add(Thread.ofPlatform().daemon().start(() -> {
          running.countDown();
          try {
            while (!stop.get()) {
              loop.run();
            }
          } catch (KernelException e) {
            if (e.variant() != KernelException.Variant.Closed) {
              unexpected.add(e);
            }
          } catch (Throwable t) {
            unexpected.add(t);
          }
        }));
      }
      assertTrue(running.await(10, TimeUnit.SECONDS));
      Thread.sleep(ThreadLocalRandom.current().nextInt(1, 5));
      kernel.shutdown(Duration.ofSeconds(5));
      // The observers go on for a moment on the copies shutdown left, then stop.
      Thread.sleep(1);
      stop.set(true);
      for (Thread thread : threads) {
        thread.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(thread.isAlive(), "round " + round + ": a thread is still running");
      }
    }
    if (!unexpected.isEmpty()) {
      AssertionError failure = new AssertionError("calls racing shutdown failed with " + unexpected.size()
          + " unexpected error(s), the first: " + unexpected.get(0));
      unexpected.forEach(failure::addSuppressed);
      throw failure;
    }
  }
}

package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** awaitExit's poll: an interrupted caller still waits by parking, not by spinning on cuStreamQuery. */
class AwaitExitPollTest {

  @Test
  void anInterruptedCallerParksBetweenPollsAndKeepsItsInterrupt() {
    AtomicLong polls = new AtomicLong();
    Thread.currentThread().interrupt();
    long start = System.nanoTime();
    boolean exited = CudaSession.pollUntil(() -> {
      polls.incrementAndGet();
      return false;
    }, Duration.ofMillis(200));
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(Thread.interrupted(), "the interrupt is restored");
    assertFalse(exited);
    assertTrue(elapsedMillis >= 190, "it waited the timeout: " + elapsedMillis + " ms");
    // 100 µs parks: at most ~2000 polls in 200 ms; a spin makes millions.
    assertTrue(polls.get() <= 2_500, polls.get() + " polls in 200 ms");
  }

  @Test
  void returnsAsSoonAsDone() {
    AtomicLong polls = new AtomicLong();
    assertTrue(CudaSession.pollUntil(() -> polls.incrementAndGet() >= 3, Duration.ofSeconds(10)));
    assertFalse(Thread.currentThread().isInterrupted());
  }
}

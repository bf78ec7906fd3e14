package dev.vyre.graph.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LevelBarrierTest {

  @Test
  void theLastArriverRunsTheActionOncePerPhaseAfterEveryPartysWrites() throws InterruptedException {
    int parties = 4;
    int phases = 2_000;
    LevelBarrier barrier = new LevelBarrier(parties);
    int[] progress = new int[parties];
    int[] published = new int[1];
    AtomicInteger actions = new AtomicInteger();
    AtomicInteger mismatches = new AtomicInteger();
    Runnable action = () -> {
      actions.incrementAndGet();
      for (int done : progress) {
        if (done != published[0] + 1) {
          mismatches.incrementAndGet();
        }
      }
      published[0]++;
    };
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < parties; p++) {
      int id = p;
      threads.add(Thread.ofPlatform().start(() -> {
        for (int phase = 0; phase < phases; phase++) {
          progress[id]++;
          barrier.await(action);
          if (published[0] != phase + 1) {
            mismatches.incrementAndGet();
          }
        }
      }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(phases, actions.get());
    assertEquals(0, mismatches.get());
  }

  @Test
  void aSinglePartyIsAlwaysTheLast() {
    LevelBarrier barrier = new LevelBarrier(1);
    int[] runs = new int[1];
    for (int i = 0; i < 10; i++) {
      barrier.await(() -> runs[0]++);
      barrier.await(null);
    }
    assertEquals(10, runs[0]);
  }
}

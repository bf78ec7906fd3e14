package dev.vyre.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLongArray;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

class ParallelTest {

  @Property(tries = 100)
  void everyIndexIsVisitedExactlyOnce(@ForAll @LongRange(min = 0, max = 5000) long total,
      @ForAll @LongRange(min = 1, max = 700) long grain) {
    AtomicLongArray visits = new AtomicLongArray((int) total);
    Parallel.forRanges(total, grain, (from, to) -> {
      for (long i = from; i < to; i++) {
        visits.incrementAndGet((int) i);
      }
    });
    for (int i = 0; i < total; i++) {
      assertEquals(1, visits.get(i), "index " + i);
    }
  }
}

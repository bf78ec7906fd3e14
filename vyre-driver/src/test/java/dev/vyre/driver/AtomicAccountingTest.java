package dev.vyre.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.vyre.driver.AtomicAccounting.CounterEvent;
import dev.vyre.driver.error.BackendException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Atomic accounting (docs/PORTS.md, "Checked arithmetic and accounting") and vyre's H3 vectors. */
class AtomicAccountingTest {

  private static final CounterEvent NEVER = (first, second) -> fail("unexpected event " + first + ", " + second);

  /** Records each event as a pair. */
  private static final class Events implements CounterEvent {
    final List<List<Long>> seen = new ArrayList<>();

    @Override
    public void on(long first, long second) {
      seen.add(List.of(first, second));
    }
  }

  @Test
  void checkedUpdatePublishesTheNextValueAndReturnsTheObservedOne() { // H3: 41 + 1
    AtomicLong counter = new AtomicLong(41);
    long previous = AtomicAccounting.checkedUpdate(counter,
        observed -> Accounting.checkedAddU64(observed, 1, "overflow", BackendException::other), NEVER);
    assertEquals(41, previous);
    assertEquals(42, counter.get());
  }

  @Test
  void checkedUpdateU32RejectsWithoutPublishing() { // H3: u32::MAX + 1
    AtomicInteger counter = new AtomicInteger((int) Unsigned.U32_MAX);
    BackendException error = assertThrows(BackendException.class, () -> AtomicAccounting.checkedUpdateU32(counter,
        bits -> (int) Accounting.checkedAddU32(Unsigned.u32(bits), 1, "overflow", BackendException::other), NEVER));
    assertEquals("overflow", error.display());
    assertEquals(Unsigned.U32_MAX, Unsigned.u32(counter.get()));
  }

  @Test
  void checkedUpdateReportsLostRaces() {
    AtomicLong counter = new AtomicLong(10);
    Events retries = new Events();
    long previous = AtomicAccounting.checkedUpdate(counter, observed -> {
      if (observed == 10) {
        counter.set(20); // another thread wins the first race
      }
      return observed + 1;
    }, retries);
    assertEquals(20, previous);
    assertEquals(21, counter.get());
    assertEquals(List.of(List.of(10L, 20L)), retries.seen);
  }

  @Test
  void checkedAddAndSubFailWithoutPublishing() {
    AtomicLong counter = new AtomicLong(Unsigned.U64_MAX - 1);
    AtomicAccounting.checkedAdd(counter, 1, (observed, value) -> fail("one fits"));
    assertEquals(Unsigned.U64_MAX, counter.get());
    BackendException overflow = assertThrows(BackendException.class, () -> AtomicAccounting.checkedAdd(counter, 1,
        (observed, value) -> BackendException.other("Fix: overflow " + Long.toUnsignedString(observed) + " " + value)));
    assertEquals("Fix: overflow 18446744073709551615 1", overflow.display());
    assertEquals(Unsigned.U64_MAX, counter.get());

    AtomicLong sub = new AtomicLong(1);
    AtomicAccounting.checkedSub(sub, 1, (observed, value) -> fail("one fits"));
    assertEquals(0, sub.get());
    assertThrows(BackendException.class, () -> AtomicAccounting.checkedSub(sub, 1,
        (observed, value) -> BackendException.other("Fix: underflow " + observed + " " + value)));
    assertEquals(0, sub.get());
    AtomicAccounting.checkedSub(sub, 0, (observed, value) -> fail("subtracting 0 is a no-op"));
  }

  @Test
  void guardedAddValidatesTheNextValueBeforePublishing() {
    AtomicLong counter = new AtomicLong(8);
    AtomicAccounting.CounterError overflow = (observed, value) -> BackendException.other("overflow");
    BackendException budget = assertThrows(BackendException.class, () -> AtomicAccounting.checkedAdd(counter, 5,
        overflow, next -> {
          if (next > 12) {
            throw BackendException.other("budget");
          }
        }));
    assertEquals("budget", budget.display());
    assertEquals(8, counter.get());
    AtomicAccounting.checkedAdd(counter, 4, overflow, next -> {
      if (next > 12) {
        throw BackendException.other("budget");
      }
    });
    assertEquals(12, counter.get());
  }

  @Test
  void repairingSubStoresZeroOnUnderflowAndReportsIt() { // vyre's vector: counter 3, subtract 5
    AtomicLong counter = new AtomicLong(10);
    assertEquals(10, AtomicAccounting.repairingSubFetch(counter, 4, NEVER));
    assertEquals(6, counter.get());
    counter.set(3);
    Events repairs = new Events();
    assertEquals(3, AtomicAccounting.repairingSubFetch(counter, 5, repairs));
    assertEquals(0, counter.get());
    assertEquals(List.of(List.of(3L, 5L)), repairs.seen);
    assertEquals(0, AtomicAccounting.repairingSubFetch(counter, 0, NEVER));
  }

  @Test
  void pinningAddReportsThePinOnceOnTheTransition() { // vyre's vector: MAX-1 plus 2, then plus 1
    AtomicLong counter = new AtomicLong(Unsigned.U64_MAX - 1);
    Events pinned = new Events();
    assertEquals(Unsigned.U64_MAX - 1, AtomicAccounting.pinningAdd(counter, 2, pinned));
    assertEquals(Unsigned.U64_MAX, counter.get());
    assertEquals(List.of(List.of(Unsigned.U64_MAX - 1, 2L)), pinned.seen);
    assertEquals(Unsigned.U64_MAX, AtomicAccounting.pinningAdd(counter, 1, pinned));
    assertEquals(Unsigned.U64_MAX, counter.get());
    assertEquals(1, pinned.seen.size());
    assertEquals(5, AtomicAccounting.pinningAdd(new AtomicLong(5), 0, NEVER));
  }

  @Test
  void pinningIncrementsNeverWrap() {
    AtomicLong wide = new AtomicLong(Unsigned.U64_MAX - 1);
    assertTrue(AtomicAccounting.pinningIncrement(wide, () -> fail("first increment fits")));
    assertEquals(Unsigned.U64_MAX, wide.get());
    AtomicInteger pins = new AtomicInteger();
    assertFalse(AtomicAccounting.pinningIncrement(wide, pins::incrementAndGet));
    assertEquals(Unsigned.U64_MAX, wide.get());

    AtomicInteger narrow = new AtomicInteger((int) (Unsigned.U32_MAX - 1));
    assertTrue(AtomicAccounting.pinningIncrementU32(narrow, () -> fail("first increment fits")));
    assertEquals(Unsigned.U32_MAX, Unsigned.u32(narrow.get()));
    assertFalse(AtomicAccounting.pinningIncrementU32(narrow, pins::incrementAndGet));
    assertEquals(Unsigned.U32_MAX, Unsigned.u32(narrow.get()));
    assertEquals(2, pins.get());
    assertTrue(AtomicAccounting.pinningIncrementU32(new AtomicInteger(Integer.MAX_VALUE), () -> fail("2^31 fits")));
  }

  @Test
  void rebasingNextPublishesTheRebaseValueInsteadOfWrapping() {
    AtomicLong counter = new AtomicLong(7);
    assertEquals(7, AtomicAccounting.rebasingNext(counter, 1, NEVER));
    assertEquals(8, counter.get());
    counter.set(Unsigned.U64_MAX);
    Events rebases = new Events();
    assertEquals(Unsigned.U64_MAX, AtomicAccounting.rebasingNext(counter, 1, rebases));
    assertEquals(1, counter.get());
    assertEquals(List.of(List.of(Unsigned.U64_MAX, 1L)), rebases.seen);
  }

  @Test
  void checkedNextRejectsWraparound() {
    AtomicLong counter = new AtomicLong(41);
    assertEquals(41, AtomicAccounting.checkedNext(counter, observed -> BackendException.other("overflow")));
    assertEquals(42, counter.get());
    counter.set(Unsigned.U64_MAX);
    BackendException error = assertThrows(BackendException.class, () -> AtomicAccounting.checkedNext(counter,
        observed -> BackendException.other("overflow at " + Long.toUnsignedString(observed))));
    assertEquals("overflow at 18446744073709551615", error.display());
    assertEquals(Unsigned.U64_MAX, counter.get());
  }

  @Test
  void maxRaisesWithoutLoweringAndComparesUnsigned() {
    AtomicLong counter = new AtomicLong(10);
    assertEquals(10, AtomicAccounting.max(counter, 42));
    assertEquals(42, counter.get());
    assertEquals(42, AtomicAccounting.max(counter, 7));
    assertEquals(42, counter.get());
    assertEquals(42, AtomicAccounting.max(counter, Unsigned.U64_MAX));
    assertEquals(Unsigned.U64_MAX, counter.get());
  }

  @Test
  void concurrentCheckedAddsLoseNoIncrement() throws InterruptedException {
    AtomicLong counter = new AtomicLong();
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = Thread.ofPlatform().start(() -> {
        for (int i = 0; i < 10_000; i++) {
          AtomicAccounting.checkedAdd(counter, 1, (observed, value) -> BackendException.other("overflow"));
        }
      });
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(40_000, counter.get());
  }
}

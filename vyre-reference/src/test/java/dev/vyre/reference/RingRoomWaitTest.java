package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.wire.Opcodes;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A publisher that finds every slot in flight times its wait for room ({@link Megakernel#roomWait}):
 * what tells a scan's publishing that waits for the kernel from publishing that costs the host.
 */
class RingRoomWaitTest {

  private static final int HOLD = 11;
  private static final int SLOTS = 64;
  private static final long HELD_MILLIS = 100;

  @Test
  void aPublisherThatWaitsForRoomIsTimedAndOneThatDoesNotIsNot() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (Megakernel kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(SLOTS).workers(1)
        .singlePriority(Priority.NORMAL).userOpcode(HoldingOpcode.of(HOLD, "hold", started, release))
        .publishTimeout(Duration.ofSeconds(30)).bootstrap()) {
      TaskBatch batch = new TaskBatch(SLOTS).priority(Priority.NORMAL);
      for (int i = 0; i < SLOTS; i++) {
        batch.add3(0, i == 0 ? HOLD : Opcodes.NOP, 0, 0, 0);
      }
      long first = kernel.publish(batch);
      assertEquals(new Megakernel.RoomWait(0, 0), kernel.roomWait(), "a batch that found room waited for none");
      assertTrue(started.await(10, TimeUnit.SECONDS), "the holding task never started");
      AtomicLong ticket = new AtomicLong(-1);
      long held = System.nanoTime();
      Thread publisher = Thread.ofPlatform().start(() -> ticket.set(kernel.publish(0, Priority.NORMAL, Opcodes.NOP)));
      Thread.sleep(HELD_MILLIS);
      assertTrue(publisher.isAlive(), "the ring's slots are all in flight: the publish must wait for room");
      release.countDown();
      publisher.join(10_000);
      long heldNanos = System.nanoTime() - held;
      assertTrue(kernel.await(Megakernel.batchTicket(first, SLOTS - 1), Duration.ofSeconds(10)));
      assertTrue(kernel.await(ticket.get(), Duration.ofSeconds(10)));
      Megakernel.RoomWait room = kernel.roomWait();
      // From its first look at the full ring (after its thread started) to its slot: most of the hold.
      assertTrue(room.waitNanos() >= TimeUnit.MILLISECONDS.toNanos(HELD_MILLIS) / 2 && room.waitNanos() <= heldNanos,
          "waited " + room.waitNanos() + " ns for room, the slots held " + heldNanos + " ns");
      assertTrue(room.idleNanos() >= 0 && room.idleNanos() <= room.waitNanos(), room.toString());
      assertEquals(new Megakernel.RoomWait(0, 0), room.since(room));
    }
  }
}

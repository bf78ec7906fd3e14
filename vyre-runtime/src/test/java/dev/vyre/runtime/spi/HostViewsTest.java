package dev.vyre.runtime.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Ending a session's views: at once when nothing holds them, never while an operation does. */
class HostViewsTest {

  @Test
  void endsViewsSoThatLaterAccessesThrowAndIsIdempotent() {
    Arena views = Arena.ofShared();
    MemorySegment view = views.allocate(64);
    assertTrue(HostViews.end(views, Duration.ZERO));
    assertThrows(IllegalStateException.class, () -> view.get(ValueLayout.JAVA_INT, 0));
    assertTrue(HostViews.end(views, Duration.ZERO), "already ended");
  }

  @Test
  void waitsOutAReadIntoAViewAndGivesUpAfterItsPatienceWithoutClosing() throws Exception {
    // A channel read into a view holds the arena while it blocks, as a chunk read does. Whether the
    // reader is inside its read yet is only known by trying: a round where it was not ends the
    // views at once (its read then fails), and the next round gives it longer.
    for (int round = 0; ; round++) {
      assertTrue(round < 5, "the reader never got into its read");
      Arena views = Arena.ofShared();
      MemorySegment view = views.allocate(64);
      Pipe pipe = Pipe.open();
      try {
        CompletableFuture<Integer> read = new CompletableFuture<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
          try {
            read.complete(pipe.source().read(view.asByteBuffer()));
          } catch (Throwable t) {
            read.completeExceptionally(t);
          }
        });
        Thread.sleep(50L << round);
        if (HostViews.end(views, Duration.ofMillis(50))) {
          pipe.sink().close();
          reader.join(TimeUnit.SECONDS.toMillis(10));
          continue;
        }
        assertTrue(views.scope().isAlive(), "the read holds the views, so their memory must stay");
        pipe.sink().write(ByteBuffer.wrap(new byte[] {7}));
        assertEquals(1, read.get(10, TimeUnit.SECONDS));
        assertEquals(7, view.get(ValueLayout.JAVA_BYTE, 0));
        assertTrue(HostViews.end(views, Duration.ofSeconds(10)), "ended once the read returned");
        assertFalse(views.scope().isAlive());
        return;
      } finally {
        pipe.sink().close();
        pipe.source().close();
      }
    }
  }

  @Test
  void aHoldKeepsTheMemoryUntilReleasedAndNoHoldIsTakenOnceEnded() throws Exception {
    Arena views = Arena.ofShared();
    MemorySegment view = views.allocate(64);
    assertTrue(HostViews.hold(view.scope()));
    assertFalse(HostViews.endAfterHeldReads(views, Duration.ofMillis(20)), "a read the kernel performs holds the views");
    assertTrue(views.scope().isAlive(), "held memory must stay");
    assertFalse(HostViews.hold(view.scope()), "ending began: no new read may start");
    HostViews.release(view.scope());
    assertTrue(HostViews.endAfterHeldReads(views, Duration.ofSeconds(10)), "ended once released");
    assertFalse(views.scope().isAlive());
    assertFalse(HostViews.hold(view.scope()), "ended");
  }
}

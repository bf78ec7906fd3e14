package dev.vyre.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.PipelineException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

class BufferPoolTest {

  private final Arena arena = Arena.ofAuto();

  @Test
  void allocatesPageAlignedBuffersRoundedToPages() {
    List<MemorySegment> buffers = BufferPool.allocate(arena, 3, 5000);
    assertEquals(3, buffers.size());
    for (MemorySegment buffer : buffers) {
      assertEquals(0, buffer.address() % 4096);
      assertEquals(8192, buffer.byteSize());
    }
    assertEquals(3, BufferPool.of(buffers).size());
  }

  @Test
  void rejectsBuffersThatCannotBeRegistered() {
    MemorySegment page = arena.allocate(8192, 4096);
    assertMessage("no buffers given", List.of());
    assertMessage("buffer 0 is not native memory", List.of(MemorySegment.ofArray(new byte[4096])));
    assertMessage("buffer 1 does not start on a 4096-byte boundary", List.of(page, page.asSlice(8)));
    assertMessage("buffer 0 is read-only", List.of(page.asReadOnly()));
    assertMessage("buffer 0 must hold 1 byte to 2 GiB - 1", List.of(page.asSlice(0, 0)));
  }

  private static void assertMessage(String problem, List<MemorySegment> buffers) {
    InputException e = assertThrows(InputException.class, () -> BufferPool.of(buffers));
    assertEquals("chunk buffer pool: " + problem + ". Fix: allocate the buffers with BufferPool.allocate or "
        + "arena.allocate(bytes, 4096)", e.getMessage());
  }

  @Test
  void claimsAndReleasesBuffers() {
    BufferPool pool = BufferPool.of(BufferPool.allocate(arena, 2, 4096));
    pool.claim(1, 4096);
    assertTrue(pool.busy(1));
    assertEquals(1, pool.busyCount());
    assertEquals(PipelineException.Variant.Busy, assertThrows(PipelineException.class, () -> pool.claim(1, 1)).variant());
    assertThrows(PipelineException.class, () -> pool.claim(0, 4097));
    assertThrows(PipelineException.class, () -> pool.claim(0, 0));
    assertThrows(PipelineException.class, () -> pool.claim(2, 1));
    assertFalse(pool.busy(0));
    pool.release(1);
    pool.release(1);
    assertEquals(0, pool.busyCount());
  }
}

package dev.vyre.cuda.graph;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Packing the kernel's parameter block. */
class FrontierKernelParamsTest {

  private static FrontierKernelParams numbered() {
    return new FrontierKernelParams(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
        24, 0);
  }

  @Test
  void eachFieldIsOneLongInComponentOrder() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment block = numbered().pack(arena);
      assertEquals(FrontierKernelParams.FIELDS * 8L, block.byteSize());
      long[] expected = LongStream.rangeClosed(1, FrontierKernelParams.FIELDS).map(i -> i == FrontierKernelParams.FIELDS ? 0 : i).toArray();
      assertArrayEquals(expected, block.toArray(JAVA_LONG));
    }
  }

  @Test
  void calibratingOnlyChangesOnlyItsFlag() {
    try (Arena arena = Arena.ofConfined()) {
      long[] plain = numbered().pack(arena).toArray(JAVA_LONG);
      long[] calibrating = numbered().calibratingOnly().pack(arena).toArray(JAVA_LONG);
      plain[FrontierKernelParams.FIELDS - 1] = 1;
      assertArrayEquals(plain, calibrating);
    }
  }

  @Test
  void bitmapsHoldABitAVertexInWholeSixteenByteGroups() {
    assertEquals(0, FrontierKernelParams.bitmapWords(0));
    assertEquals(4, FrontierKernelParams.bitmapWords(1));
    assertEquals(4, FrontierKernelParams.bitmapWords(128));
    assertEquals(8, FrontierKernelParams.bitmapWords(129));
    assertEquals(262_144, FrontierKernelParams.bitmapWords(1L << 23));
  }
}

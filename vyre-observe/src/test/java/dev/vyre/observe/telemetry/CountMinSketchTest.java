package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.PipelineException;
import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CountMinSketchTest {

  @Test
  void splitmix64MatchesVyre() {
    assertEquals(0xE220_A839_7B1D_CDAFL, CountMinSketch.splitmix64(0));
  }

  @ParameterizedTest(name = "{0}x{1} key {2}")
  @CsvSource(delimiter = ';', value = {
      "4;128;0;47,244,335,492",
      "4;128;1;65,201,350,466",
      "4;128;7;87,129,257,450",
      "4;128;99;99,210,341,408",
      "4;128;4294967295;64,191,374,425",
      "3;16;0;15,20,47",
      "3;16;7;7,17,33",
      "3;16;99;3,18,37",
  })
  void counterIndicesMatchVyre(int depth, int width, long key, String indices) {
    CountMinSketch sketch = new CountMinSketch(depth, width);
    int[] actual = new int[depth];
    for (int row = 0; row < depth; row++) {
      actual[row] = sketch.bucket(row, key);
    }
    int[] expected = java.util.Arrays.stream(indices.split(",")).mapToInt(Integer::parseInt).toArray();
    assertArrayEquals(expected, actual);
    sketch.add(key, 3);
    for (int index : expected) {
      assertEquals(3, sketch.counter(index));
    }
  }

  @Test
  void zeroShapeIsRefusedAsAnInvalidTelemetryArgument() {
    PipelineException depth = assertThrows(PipelineException.class, () -> new CountMinSketch(0, 128));
    assertEquals(PipelineException.Variant.InvalidArgument, depth.variant());
    assertEquals("telemetry", depth.fields().get("subject"));
    assertThrows(PipelineException.class, () -> new CountMinSketch(4, 0));
    assertThrows(PipelineException.class, () -> new CountMinSketch(-1, 4));
  }

  @Test
  void oversizedShapeReportsOverflow() {
    PipelineException error = assertThrows(PipelineException.class, () -> new CountMinSketch(65_536, 65_536));
    assertTrue(error.getMessage().contains("overflow"));
  }

  @Test
  void addEstimatesAndZeroAmountIsANoOp() {
    CountMinSketch sketch = new CountMinSketch(4, 128);
    sketch.add(7, 0);
    assertEquals(0, sketch.estimate(7));
    sketch.add(7, 5);
    sketch.add(7, 2);
    assertEquals(7, sketch.estimate(7));
  }

  @Test
  void addSaturatesButTryAddRefusesWithoutChangingAnything() {
    CountMinSketch sketch = new CountMinSketch(3, 16);
    sketch.add(99, Unsigned.U64_MAX - 1);
    sketch.add(99, 5);
    assertEquals(Unsigned.U64_MAX, sketch.estimate(99));
    CountMinSketch strict = new CountMinSketch(3, 16);
    strict.tryAdd(1, Unsigned.U64_MAX - 1);
    PipelineException error = assertThrows(PipelineException.class, () -> strict.tryAdd(1, 2));
    assertTrue(error.getMessage().contains("overflow"));
    assertEquals(Unsigned.U64_MAX - 1, strict.estimate(1));
  }

  @Test
  void mergeAddsCountersOfTheSameShape() {
    CountMinSketch a = new CountMinSketch(4, 128);
    CountMinSketch b = new CountMinSketch(4, 128);
    a.add(1, 2);
    b.add(1, 3);
    b.add(2, 4);
    a.merge(b);
    assertEquals(5, a.estimate(1));
    assertEquals(4, a.estimate(2));
  }

  @Test
  void mergeRefusesOtherShapesAndOverflowWithoutChangingAnything() {
    CountMinSketch a = new CountMinSketch(4, 128);
    assertThrows(PipelineException.class, () -> a.merge(new CountMinSketch(3, 128)));
    a.add(1, 1);
    CountMinSketch full = new CountMinSketch(4, 128);
    full.add(2, 1);
    full.add(1, Unsigned.U64_MAX);
    PipelineException error = assertThrows(PipelineException.class, () -> a.merge(full));
    assertTrue(error.getMessage().contains("overflow"));
    assertEquals(1, a.estimate(1));
    assertEquals(0, a.estimate(2));
  }

  @Test
  void clearAndResetShapeReuseStorage() {
    CountMinSketch sketch = new CountMinSketch(4, 128);
    sketch.add(1, 1);
    sketch.clear();
    assertEquals(0, sketch.estimate(1));
    sketch.resetShape(3, 16);
    assertEquals(512, sketch.capacity());
    assertEquals(3, sketch.depth());
    assertEquals(16, sketch.width());
    assertArrayEquals(new int[] {15, 20, 47}, new int[] {sketch.bucket(0, 0), sketch.bucket(1, 0), sketch.bucket(2, 0)});
    sketch.resetShape(8, 128);
    assertEquals(1024, sketch.capacity());
  }

  @Property(tries = 100)
  void estimateNeverUndercounts(@ForAll @Size(max = 200) long[] keys, @ForAll @IntRange(min = 1, max = 5) int depth,
      @ForAll @IntRange(min = 1, max = 64) int width) {
    CountMinSketch sketch = new CountMinSketch(depth, width);
    Map<Long, Long> truth = new HashMap<>();
    for (long key : keys) {
      sketch.add(key % 17, 1);
      truth.merge(key % 17, 1L, Long::sum);
    }
    truth.forEach((key, count) -> assertTrue(sketch.estimate(key) >= count));
  }
}

package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.observe.telemetry.WindowOpcodeMatcher.Strategy;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class WindowOpcodeMatcherTest {

  private static Strategy strategyOf(int... opcodes) {
    WindowOpcodeMatcher matcher = new WindowOpcodeMatcher();
    matcher.configure(opcodes);
    return matcher.strategy();
  }

  @Test
  void choosesVyresStrategies() {
    assertEquals(Strategy.NONE, strategyOf());
    assertEquals(Strategy.SINGLE, strategyOf(0xF101));
    assertEquals(Strategy.SINGLE, strategyOf(5, 5, 5));
    assertEquals(Strategy.DENSE_BITMAP, strategyOf(9, 3));
    assertEquals(Strategy.DENSE_BITMAP, strategyOf(0, 127, 64, 63));
    assertEquals(Strategy.SMALL_SLICE, strategyOf(1, 128));
    assertEquals(Strategy.SMALL_SLICE, strategyOf(-1, 1));
    assertEquals(Strategy.SMALL_SLICE, strategyOf(200, 201, 202, 203, 204, 205, 206, 207));
    assertEquals(Strategy.LARGE_SLICE, strategyOf(200, 201, 202, 203, 204, 205, 206, 207, 208));
    assertEquals(Strategy.SMALL_SLICE, strategyOf(207, 200, 201, 202, 203, 204, 205, 206, 207, 206));
  }

  @Property(tries = 500)
  void everyStrategyIsSetMembership(@ForAll("opcodeSets") int[] opcodes, @ForAll("probes") int probe) {
    WindowOpcodeMatcher matcher = new WindowOpcodeMatcher();
    matcher.configure(opcodes);
    assertEquals(Arrays.stream(opcodes).anyMatch(op -> op == probe), matcher.matches(probe));
  }

  @Provide
  Arbitrary<int[]> opcodeSets() {
    return probes().array(int[].class).ofMaxSize(20);
  }

  @Provide
  Arbitrary<Integer> probes() {
    return Arbitraries.oneOf(Arbitraries.integers().between(0, 130), Arbitraries.integers().between(-3, 3),
        Arbitraries.integers());
  }
}

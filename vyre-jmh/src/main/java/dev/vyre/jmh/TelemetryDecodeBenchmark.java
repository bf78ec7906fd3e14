package dev.vyre.jmh;

import dev.vyre.observe.telemetry.MegakernelRuntimeCounters;
import dev.vyre.observe.telemetry.RingTelemetry;
import dev.vyre.observe.telemetry.TelemetryDecodeScratch;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Host-side telemetry decode of a 65,536-slot ring into caller-owned storage (target: ≤ 1 ms),
 * without and with route-window grouping. The ring mixes every status; a quarter of the slots
 * carry window opcodes, 16 slots per ticket.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = "--enable-native-access=ALL-UNNAMED")
public class TelemetryDecodeBenchmark {

  private static final int[] WINDOW_OPCODES = {0xF101, 0xF102, 0xF103, 0xF104};
  private static final int[] NO_WINDOWS = {};

  @Param("65536")
  int slots;

  private byte[] control;
  private byte[] ring;
  private final RingTelemetry out = new RingTelemetry();
  private final TelemetryDecodeScratch scratch = new TelemetryDecodeScratch();

  @Setup
  public void setUp() {
    control = ControlLayout.encode(false, 8, 64);
    ring = new byte[slots * SlotLayout.SLOT_BYTES];
    MemorySegment segment = MemorySegment.ofArray(ring);
    SplittableRandom random = new SplittableRandom(42);
    for (int slot = 0; slot < slots; slot++) {
      long base = SlotLayout.slotBase(slot);
      boolean window = random.nextInt(4) == 0;
      Words.set(segment, base + SlotLayout.STATUS_WORD, random.nextInt(9));
      Words.set(segment, base + SlotLayout.OPCODE_WORD, window ? WINDOW_OPCODES[random.nextInt(4)] : random.nextInt(8));
      Words.set(segment, base + SlotLayout.TENANT_WORD, random.nextInt(8));
      Words.set(segment, SlotLayout.argWord(slot, 0), slot / 16);
      Words.set(segment, SlotLayout.argWord(slot, 1), random.nextInt(3));
      Words.set(segment, SlotLayout.argWord(slot, 2), slot);
    }
  }

  @Benchmark
  public RingTelemetry decodeRing() {
    RingTelemetry.tryDecodeWithWindowOpcodesInto(control, ring, NO_WINDOWS, out, scratch);
    return out;
  }

  @Benchmark
  public RingTelemetry decodeRingWithWindows() {
    RingTelemetry.tryDecodeWithWindowOpcodesInto(control, ring, WINDOW_OPCODES, out, scratch);
    return out;
  }

  @Benchmark
  public MegakernelRuntimeCounters decodeRingAndCounters() {
    RingTelemetry.tryDecodeWithWindowOpcodesInto(control, ring, NO_WINDOWS, out, scratch);
    return out.runtimeCounters();
  }
}

package dev.vyre.jmh;

import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.RingPublisher;
import dev.vyre.runtime.wire.SlotLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The CPU side of publishing one task, on ordinary memory: its ring slot, then its express copy
 * (ExpressLayout), written three ways. What a publish costs beyond this on a GPU host is memory
 * traffic with the device (docs/BENCHMARKS.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = "--enable-native-access=ALL-UNNAMED")
public class PublishPathBenchmark {

  private static final int SLOTS = 65_536;
  private static final ValueLayout.OfLong UNIT = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private Arena arena;
  private MemorySegment ring;
  private MemorySegment express;
  private final int[] args = {7, 160};
  private final long[] units = new long[SlotLayout.SLOT_WORDS];
  private int next;

  @Setup
  public void allocate() {
    arena = Arena.ofShared();
    ring = arena.allocate(SlotLayout.ringByteLength(SLOTS), 64);
    express = arena.allocate(ExpressLayout.byteLength(SLOTS), 64);
  }

  @TearDown
  public void free() {
    arena.close();
  }

  /** Writes the next ring slot (a STORE_U32 of two arguments) and returns it. */
  private int writeNextSlot() {
    int slot = next;
    next = slot + 1 == SLOTS ? 0 : slot + 1;
    RingPublisher.writeSlot(ring, slot, 0, 2, 1, args, 0, args.length);
    return slot;
  }

  /** As Megakernel publishes today: the slot, then the copy read back from it. */
  @Benchmark
  public int slotThenCopyReadBack() {
    int slot = writeNextSlot();
    ExpressLayout.write(express, ring, slot, ExpressLayout.stamp(slot));
    return slot;
  }

  /** The copy built from the task's fields, one 8-byte store per unit. */
  @Benchmark
  public int slotThenCopyFromFields() {
    int slot = writeNextSlot();
    long stamp = (long) ExpressLayout.stamp(slot) << 32;
    long base = (long) slot * ExpressLayout.SLOT_BYTES;
    for (int w = 0; w < SlotLayout.SLOT_WORDS; w++) {
      int word = switch (w) {
        case 0 -> SlotLayout.STATUS_PUBLISHED;
        case 1 -> 1;
        case 2 -> 0;
        case 3 -> 2;
        default -> w - 4 < args.length ? args[w - 4] : 0;
      };
      express.set(UNIT, base + 8L * w, stamp | Integer.toUnsignedLong(word));
    }
    return slot;
  }

  /** The copy built in a scratch array, then one bulk copy. */
  @Benchmark
  public int slotThenCopyInBulk() {
    int slot = writeNextSlot();
    long stamp = (long) ExpressLayout.stamp(slot) << 32;
    units[0] = stamp | SlotLayout.STATUS_PUBLISHED;
    units[1] = stamp | 1;
    units[2] = stamp;
    units[3] = stamp | 2;
    for (int i = 0; i < SlotLayout.ARGS_PER_SLOT; i++) {
      units[4 + i] = stamp | (i < args.length ? Integer.toUnsignedLong(args[i]) : 0);
    }
    MemorySegment.copy(units, 0, express, UNIT, (long) slot * ExpressLayout.SLOT_BYTES, units.length);
    return slot;
  }
}

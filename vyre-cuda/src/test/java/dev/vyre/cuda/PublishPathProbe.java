package dev.vyre.cuda;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.spi.KernelMemory;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.RingPublisher;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * A measuring tool, not a test: where a JVM round trip's extra time goes. Runs one-NOP round trips
 * on the live CUDA kernel three ways, interleaved: through {@link Megakernel} as {@code vyre bench
 * dispatch} does; and on a bare session, publishing with raw stores exactly as the kernel lab's C++
 * host does ({@code raw}: slot, express copy, full fence, doorbell CAS; spin on the status; clear
 * the copy), or with the wire helpers Megakernel uses ({@code wire}). If {@code raw} is as fast as
 * the C++ host and {@code megakernel} is not, the gap is in the host API, not in the JVM's stores.
 *
 * <p>Run on the GPU machine: {@code java --enable-native-access=ALL-UNNAMED -cp <gpu-check's
 * class path> dev.vyre.cuda.PublishPathProbe [samples] [rounds]}.
 */
public final class PublishPathProbe {

  private static final int SLOTS = 65_536;
  private static final int LEVEL = Priority.NORMAL.level();

  private PublishPathProbe() {}

  public static void main(String[] argv) {
    int samples = argv.length > 0 ? Integer.parseInt(argv[0]) : 20_000;
    int rounds = argv.length > 1 ? Integer.parseInt(argv[1]) : 3;
    for (int round = 1; round <= rounds; round++) {
      print("megakernel", round, megakernel(samples));
      for (Path path : Path.values()) {
        print(path.name().toLowerCase(java.util.Locale.ROOT), round, bare(samples, path));
      }
    }
  }

  private static void print(String name, int round, long[][] trips) {
    long[] rt = trips[0];
    long[] publish = trips[1];
    // Episodes: blocks of 2,000 trips in which most publishes took over a microsecond (in order, before sorting).
    int slow = 0;
    int episodeBlocks = 0;
    for (int block = 0; block + 2_000 <= publish.length; block += 2_000) {
      int slowInBlock = 0;
      for (int i = block; i < block + 2_000; i++) {
        slowInBlock += publish[i] > 1_000 ? 1 : 0;
      }
      slow += slowInBlock;
      episodeBlocks += slowInBlock > 1_000 ? 1 : 0;
    }
    Arrays.sort(rt);
    Arrays.sort(publish);
    System.out.printf("%-10s round %d  rt p50 %.2f p99 %.2f min %.2f  publish p50 %.2f p99 %.2f us  publishes > 1 us %d,"
        + " episode blocks %d of %d%n", name, round, rt[rt.length / 2] / 1e3, rt[(int) (rt.length * 0.99)] / 1e3, rt[0] / 1e3,
        publish[publish.length / 2] / 1e3, publish[(int) (publish.length * 0.99)] / 1e3, slow, episodeBlocks, publish.length / 2_000);
  }

  private static long[][] megakernel(int samples) {
    try (Megakernel kernel = Megakernel.builder().backend(new CudaBackend()).slots(SLOTS).singlePriority(Priority.NORMAL).bootstrap()) {
      int warmup = Math.max(20_000, samples / 5);
      long[][] trips = new long[2][samples];
      Duration timeout = Duration.ofSeconds(10);
      for (int i = 0; i < warmup + samples; i++) {
        long start = System.nanoTime();
        long ticket = kernel.publish(0, Priority.NORMAL, Opcodes.NOP);
        long published = System.nanoTime();
        if (!kernel.await(ticket, timeout)) {
          throw new IllegalStateException("round trip " + i + " did not finish: " + kernel.summary());
        }
        long end = System.nanoTime();
        if (i >= warmup) {
          trips[0][i - warmup] = end - start;
          trips[1][i - warmup] = published - start;
        }
      }
      return trips;
    }
  }

  /** How a bare session's publish is written. */
  private enum Path {
    /** Raw stores as the C++ lab host: slot, express copy, full fence, doorbell CAS. */
    RAW,
    /** Through RingPublisher and ExpressLayout, then full fence and doorbell CAS. */
    WIRE,
    /** Raw stores, full fence, the doorbell by a release store (no locked instruction on the control line). */
    FENCE,
    /** Raw stores and the doorbell by a release store: no locked instruction at all (one publisher only). */
    PLAIN
  }

  /** A bare session fed one NOP at a time, published as {@code path} says. */
  private static long[][] bare(int samples, Path path) {
    boolean raw = path != Path.WIRE;
    int[] offsets = {0, 0, 0, SLOTS, SLOTS, SLOTS};
    try (KernelSession session = new CudaBackend().open(new KernelSpec(SLOTS, offsets, 1, 16, List.of(), 0))) {
      KernelMemory memory = session.memory();
      MemorySegment control = memory.control();
      MemorySegment ring = memory.ring();
      MemorySegment express = memory.express();
      express.fill((byte) 0);
      ring.fill((byte) 0);
      ControlLayout.encodeInto(control, false, 1);
      ControlLayout.writePriorityOffsets(control, offsets);
      session.launch();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (Words.getAcquire(control, ControlLayout.KERNEL_STATE) != ControlLayout.KERNEL_STATE_RUNNING) {
        if (System.nanoTime() - deadline > 0) {
          throw new IllegalStateException("the kernel did not start");
        }
      }
      int warmup = Math.max(20_000, samples / 5);
      long[][] trips = new long[2][samples];
      int[] noArgs = new int[0];
      long bell = ControlLayout.publishSeqWord(LEVEL);
      for (int i = 0; i < warmup + samples; i++) {
        int slot = i % SLOTS;
        long base = SlotLayout.slotBase(slot);
        int stamp = ExpressLayout.stamp(i);
        long start = System.nanoTime();
        if (raw) {
          Words.set(ring, base, SlotLayout.STATUS_PUBLISHED);
          Words.set(ring, base + 1, Opcodes.NOP);
          Words.set(ring, base + 2, 0);
          Words.set(ring, base + 3, LEVEL);
          for (int w = 4; w < SlotLayout.SLOT_WORDS; w++) {
            Words.set(ring, base + w, 0);
          }
          long stampBits = (long) stamp << 32;
          long unit = 2L * slot * SlotLayout.SLOT_WORDS;
          Words.setLongOpaque(express, unit, stampBits | SlotLayout.STATUS_PUBLISHED);
          Words.setLongOpaque(express, unit + 2, stampBits | Opcodes.NOP);
          Words.setLongOpaque(express, unit + 4, stampBits);
          Words.setLongOpaque(express, unit + 6, stampBits | LEVEL);
          for (int w = 4; w < SlotLayout.SLOT_WORDS; w++) {
            Words.setLongOpaque(express, unit + 2L * w, stampBits);
          }
        } else {
          RingPublisher.writeSlot(ring, slot, 0, LEVEL, Opcodes.NOP, noArgs, 0, 0);
          VarHandle.releaseFence();
          ExpressLayout.write(express, ring, slot, stamp);
        }
        if (path == Path.RAW || path == Path.WIRE) {
          VarHandle.fullFence();
          int current = Words.getVolatile(control, bell);
          Words.compareAndSet(control, bell, current, i + 1);
        } else {
          if (path == Path.FENCE) {
            VarHandle.fullFence();
          }
          Words.setRelease(control, bell, i + 1);
        }
        long published = System.nanoTime();
        int status;
        while ((status = Words.getAcquire(ring, base)) != SlotLayout.STATUS_DONE) {
          if (status == SlotLayout.STATUS_FAULT) {
            throw new IllegalStateException("task " + i + " faulted");
          }
        }
        long end = System.nanoTime();
        ExpressLayout.clear(express, slot);
        if (path != Path.PLAIN) {
          VarHandle.fullFence();
        }
        if (i >= warmup) {
          trips[0][i - warmup] = end - start;
          trips[1][i - warmup] = published - start;
        }
      }
      Words.setVolatile(control, ControlLayout.SHUTDOWN, 1);
      session.awaitExit(Duration.ofSeconds(10));
      return trips;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}

package dev.vyre.cuda;

import dev.vyre.io.IoRequestPump;
import dev.vyre.io.LoadOpcode;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.SlotLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A measuring tool, not a test: many continuations through a ring that wraps, one task at a time or
 * several in flight, with or without reads through the IO queue, to tell which of them a kernel
 * fault comes with. Run on the GPU machine, one mode per JVM (a fault is sticky): {@code java
 * --enable-native-access=ALL-UNNAMED -cp <gpu-check's class path> dev.vyre.cuda.ContinuationStressProbe
 * MODE TASKS SLOTS IN_FLIGHT} with MODE {@code countdown} (a task yields 3 times), {@code load}
 * (a LoadOpcode task of 4 KiB) or {@code timed} (a 4 KiB load that also sums, in control words
 * 180..183, the device's nanoseconds from its request to the run that saw OK, its runs, and the
 * nanoseconds from its first run to its second).
 */
public final class ContinuationStressProbe {

  private static final int COUNTDOWN = 0x7E02;
  private static final int LOAD = 0x7E01;
  private static final int TIMED = 0x7E03;
  private static final int TIMED_YIELD = 0x7E04;
  /** A task that yields once and sums, in control words 184..185, the nanoseconds from its first run to its second. */
  private static final String TIMED_YIELD_BODY = """
      unsigned long long now;
      asm volatile("mov.u64 %0, %globaltimer;" : "=l"(now));
      args[6] += 1u;
      if (args[6] == 1u) {
        args[5] = (unsigned)now;
        status = VYRE_STATUS_YIELD;
      } else {
        vyre_add(a, 184u, (unsigned)now - args[5]);
        vyre_add(a, 185u, 1u);
      }""";
  /** A load that times itself with %globaltimer: args 5 first run, 6 runs, 7 second run's start. */
  private static final String TIMED_BODY = """
      unsigned long long now;
      asm volatile("mov.u64 %0, %globaltimer;" : "=l"(now));
      args[6] += 1u;
      if (args[11] == 0u) {
        args[5] = (unsigned)now;
        int io = vyre_io_read(a, args[0], args[1], args[2], args[4], slot);
        if (io >= 0) args[11] = (unsigned)io + 1u;
        unsigned long long asked;
        asm volatile("mov.u64 %0, %globaltimer;" : "=l"(asked));
        args[8] = (unsigned)asked;
        status = VYRE_STATUS_YIELD;
      } else {
        if (args[6] == 2u) args[7] = (unsigned)now;
        unsigned verdict = vyre_io_status(a, args[11] - 1u);
        if (verdict == VYRE_IO_OK || verdict == VYRE_IO_ERROR) {
          vyre_io_release(a, args[11] - 1u);
          vyre_add(a, 180u, (unsigned)now - args[5]);
          vyre_add(a, 181u, args[6]);
          vyre_add(a, 182u, args[7] - args[5]);
          vyre_add(a, 183u, 1u);
          vyre_add(a, 186u, args[7] - args[8]);
          vyre_add(a, 187u, args[8] - args[5]);
          status = verdict == VYRE_IO_OK ? VYRE_STATUS_DONE : VYRE_STATUS_FAULT;
        } else {
          status = VYRE_STATUS_YIELD;
        }
      }""";

  private ContinuationStressProbe() {}

  private static long word(java.lang.foreign.MemorySegment control, int index) {
    return Integer.toUnsignedLong(control.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, 4L * index));
  }

  public static void main(String[] argv) throws Exception {
    String mode = argv[0];
    int tasks = Integer.parseInt(argv[1]);
    int slots = Integer.parseInt(argv[2]);
    int inFlight = Integer.parseInt(argv[3]);
    UserOpcode countdown = UserOpcode.both(COUNTDOWN, "countdown", slot -> {
      int left = slot.arg(0);
      if (left > 0) {
        slot.setArg(0, left - 1);
        return SlotLayout.STATUS_YIELD;
      }
      return SlotLayout.STATUS_DONE;
    }, "if (args[0] > 0u) { args[0] -= 1u; status = VYRE_STATUS_YIELD; }");
    Path file = Files.createTempFile("probe", ".bin");
    Files.write(file, new byte[1 << 20]);
    try (Megakernel kernel = Megakernel.builder().backend(new CudaBackend()).slots(slots).singlePriority(Priority.NORMAL)
        .userOpcode(countdown).userOpcode(LoadOpcode.of(LOAD))
        .userOpcode(UserOpcode.both(TIMED, "timed-load", slot -> SlotLayout.STATUS_FAULT, TIMED_BODY))
        .userOpcode(UserOpcode.both(TIMED_YIELD, "timed-yield", slot -> SlotLayout.STATUS_FAULT, TIMED_YIELD_BODY)).observables(64).bootstrap()) {
      int source = IoRequestPump.of(kernel).open(file);
      int[] pages = new int[inFlight];
      for (int i = 0; i < inFlight; i++) {
        pages[i] = kernel.allocateResource(4096, ResourcePlacement.HOST_MAPPED);
      }
      @SuppressWarnings("unchecked")
      java.util.concurrent.CompletableFuture<dev.vyre.runtime.TaskResult>[] tickets = new java.util.concurrent.CompletableFuture[inFlight];
      int[] args = new int[5];
      long start = System.nanoTime();
      for (int i = 0; i < tasks; i++) {
        int lane = i % inFlight;
        if (i >= inFlight) {
          dev.vyre.runtime.TaskResult result = tickets[lane].get(10, java.util.concurrent.TimeUnit.SECONDS);
          if (!result.isDone()) {
            System.out.printf("%s: task %d ended %s%n", mode, i - inFlight, result);
          }
        }
        if (mode.equals("tyield")) {
          args[0] = 0;
          tickets[lane] = kernel.submit(dev.vyre.runtime.Task.of(TIMED_YIELD, args));
        } else if (mode.equals("countdown")) {
          args[0] = 3;
          tickets[lane] = kernel.submit(dev.vyre.runtime.Task.of(COUNTDOWN, args));
        } else {
          args[0] = source;
          args[1] = pages[lane];
          args[2] = (i % 256) * 4096;
          args[3] = 0;
          args[4] = 4096;
          tickets[lane] = kernel.submit(dev.vyre.runtime.Task.of(mode.equals("timed") ? TIMED : LOAD, args));
        }
        if (i % 5000 == 0) {
          System.out.printf("%s: %d tasks, %s%n", mode, i, kernel.summary());
        }
      }
      if (!kernel.drain(Duration.ofSeconds(10))) {
        throw new IllegalStateException(mode + ": did not drain: " + kernel.summary());
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("%s: %d tasks (%d slots, %d in flight) finished in %.2f s (%.2f us each), faults %d, pump %s%n", mode, tasks, slots,
          inFlight, seconds, seconds * 1e6 / tasks, kernel.stats().faults(), IoRequestPump.of(kernel).stats());
      if (mode.equals("timed")) {
        java.lang.foreign.MemorySegment control = java.lang.foreign.MemorySegment.ofArray(kernel.controlSnapshot());
        long loads = word(control, 183);
        System.out.printf("timed: %d loads; on the device: request to OK seen %.2f us, %.2f runs, first run to second %.2f us%n", loads,
            word(control, 180) / 1e3 / loads, (double) word(control, 181) / loads, word(control, 182) / 1e3 / loads);
        System.out.printf("timed: first run's own time %.2f us, from its end to the second run %.2f us%n", word(control, 187) / 1e3 / loads,
            word(control, 186) / 1e3 / loads);
      }
      if (mode.equals("tyield")) {
        java.lang.foreign.MemorySegment control = java.lang.foreign.MemorySegment.ofArray(kernel.controlSnapshot());
        long runs = word(control, 185);
        System.out.printf("tyield: %d tasks; on the device: first run to second %.2f us%n", runs, word(control, 184) / 1e3 / runs);
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }
}

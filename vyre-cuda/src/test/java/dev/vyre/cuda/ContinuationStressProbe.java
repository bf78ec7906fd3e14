package dev.vyre.cuda;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.io.LoadOpcode;
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
 * MODE TASKS SLOTS IN_FLIGHT} with MODE {@code countdown} (a task yields 3 times) or {@code load}
 * (a LoadOpcode task of 4 KiB).
 */
public final class ContinuationStressProbe {

  private static final int COUNTDOWN = 0x7E02;
  private static final int LOAD = 0x7E01;

  private ContinuationStressProbe() {}

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
        .userOpcode(countdown).userOpcode(LoadOpcode.of(LOAD)).bootstrap()) {
      int source = kernel.ioPump().open(file);
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
        if (mode.equals("countdown")) {
          args[0] = 3;
          tickets[lane] = kernel.submit(dev.vyre.runtime.Task.of(COUNTDOWN, args));
        } else {
          args[0] = source;
          args[1] = pages[lane];
          args[2] = (i % 256) * 4096;
          args[3] = 0;
          args[4] = 4096;
          tickets[lane] = kernel.submit(dev.vyre.runtime.Task.of(LOAD, args));
        }
        if (i % 5000 == 0) {
          System.out.printf("%s: %d tasks, %s%n", mode, i, kernel.summary());
        }
      }
      if (!kernel.drain(Duration.ofSeconds(10))) {
        throw new IllegalStateException(mode + ": did not drain: " + kernel.summary());
      }
      System.out.printf("%s: %d tasks (%d slots, %d in flight) finished in %.2f s, faults %d, pump %s%n", mode, tasks, slots, inFlight,
          (System.nanoTime() - start) / 1e9, kernel.stats().faults(), kernel.ioPump().stats());
    } finally {
      Files.deleteIfExists(file);
    }
  }
}

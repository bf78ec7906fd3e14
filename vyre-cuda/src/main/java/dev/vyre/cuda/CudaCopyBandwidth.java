package dev.vyre.cuda;

import dev.vyre.cuda.internal.CudaContext;
import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.internal.Releases;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The host-to-device copy bandwidth of each device alone, then of all of them at once: pinned host
 * memory copied by each device's copy engine, as a scan's chunks are. The devices share PCIe
 * switches, the root complex and the host's memory, so together they may reach less than the sum
 * of their figures alone; the together figure is the ceiling of what the host can feed several
 * devices, to read a multi-device scan's scaling against (docs/MULTI-GPU.md).
 */
public final class CudaCopyBandwidth {

  /**
   * GB/s (10^9 bytes per second) of each device alone and during the run together, by ordinal, and
   * the total of the run together (all bytes over its wall time).
   */
  public record Result(Map<Integer, Double> alone, Map<Integer, Double> together, double togetherTotal) {}

  private CudaCopyBandwidth() {}

  /** Copies {@code bytes} to each device {@code rounds} times, alone and then all at once. */
  public static Result measure(List<Integer> devices, long bytes, int rounds) throws InterruptedException {
    CudaDriver driver = CudaDriver.load();
    Releases releases = new Releases();
    try {
      List<Copier> copiers = new ArrayList<>();
      for (int ordinal : devices) {
        copiers.add(new Copier(driver, ordinal, bytes, releases));
      }
      Map<Integer, Double> alone = new LinkedHashMap<>();
      for (Copier copier : copiers) {
        copier.copy(1);
        alone.put(copier.ordinal(), bytes * (double) rounds / copier.copy(rounds));
      }
      Map<Integer, Double> together = new LinkedHashMap<>();
      long wall = together(copiers, rounds, together);
      Result result = new Result(alone, together, bytes * (double) rounds * copiers.size() / wall);
      releases.releaseAll();
      return result;
    } catch (RuntimeException | Error | InterruptedException e) {
      releases.releaseAfter(e);
      throw e;
    }
  }

  /** Every copier on a thread of its own, started together; fills {@code rates} and returns the wall time in ns. */
  private static long together(List<Copier> copiers, int rounds, Map<Integer, Double> rates) throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    long[] nanos = new long[copiers.size()];
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < copiers.size(); i++) {
      int index = i;
      threads.add(Thread.ofPlatform().name("vyre-h2d-" + copiers.get(i).ordinal()).start(() -> {
        try {
          start.await();
          nanos[index] = copiers.get(index).copy(rounds);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
          failure.compareAndSet(null, e);
        }
      }));
    }
    long started = System.nanoTime();
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    long wall = System.nanoTime() - started;
    if (failure.get() != null) {
      throw failure.get();
    }
    for (int i = 0; i < copiers.size(); i++) {
      rates.put(copiers.get(i).ordinal(), copiers.get(i).bytes * (double) rounds / nanos[i]);
    }
    return wall;
  }

  /** One device's context, pinned source, device target and stream; their releases go to the caller's {@link Releases}. */
  private static final class Copier {
    private final CudaDriver driver;
    private final CudaContext context;
    private final long bytes;
    private final MemorySegment host;
    private final long device;
    private final MemorySegment stream;

    Copier(CudaDriver driver, int ordinal, long bytes, Releases releases) {
      this.driver = driver;
      this.bytes = bytes;
      this.context = CudaContext.retain(driver, ordinal);
      releases.add(context::release);
      MemorySegment pinned = driver.allocMappedHost(bytes);
      releases.add(() -> {
        context.makeCurrent();
        driver.freeHost(pinned);
      });
      this.host = pinned;
      host.fill((byte) 0x5a);
      long target = driver.allocDevice(bytes);
      releases.add(() -> {
        context.makeCurrent();
        driver.freeDevice(target);
      });
      this.device = target;
      MemorySegment created = driver.createStream();
      releases.add(() -> {
        context.makeCurrent();
        driver.destroyStream(created);
      });
      this.stream = created;
    }

    int ordinal() {
      return context.device().ordinal();
    }

    /** Queues {@code rounds} copies and waits for them; the ns they took. */
    long copy(int rounds) {
      context.makeCurrent();
      long started = System.nanoTime();
      for (int r = 0; r < rounds; r++) {
        driver.copyToDeviceAsync(device, host, bytes, stream);
      }
      driver.synchronizeStream(stream);
      return System.nanoTime() - started;
    }
  }
}

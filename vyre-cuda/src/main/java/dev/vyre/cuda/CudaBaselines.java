package dev.vyre.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.internal.Releases;
import dev.vyre.runtime.IdleStrategy;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What a user would do instead of a persistent megakernel, measured in the same run as the
 * megakernel so the ratios compare like with like: one launch + synchronize per task, async
 * launches, a CUDA Graph of one-shot kernels replayed, and the ping-pong floor of a host ↔ device
 * round trip through mapped memory. Run it before the megakernel starts, so nothing else holds the SMs.
 */
public final class CudaBaselines {

  private CudaBaselines() {}

  /** Measures every baseline; keys are stable names for the bench table and JSON. */
  public static Map<String, Object> measure(int launchSamples, int pingPongSamples) {
    return measure(launchSamples, pingPongSamples, taken -> {});
  }

  /**
   * {@link #measure(int, int)}, telling {@code took} the name of each thing it takes (the context,
   * the module, the stream, each buffer, the graph) once its release is registered: a test throws
   * from it to check that a measurement failing part way gives back everything it took.
   */
  static Map<String, Object> measure(int launchSamples, int pingPongSamples, Consumer<String> took) {
    CudaDriver driver = CudaDriver.load();
    CudaDevice device = CudaDevice.query(driver, CudaDevice.selectedOrdinal());
    // Each step registers its release as it takes something: a step that throws part way (a failed
    // launch, a sticky error left by an earlier kernel, an NVRTC error) gives back what the earlier
    // steps took, newest first, instead of leaking it with the context's retain.
    Releases releases = new Releases();
    Map<String, Object> results = new LinkedHashMap<>();
    try (Arena arena = Arena.ofConfined()) {
      int ordinal = driver.device(device.ordinal());
      MemorySegment context = driver.retainPrimaryContext(ordinal);
      releases.add(() -> driver.releasePrimaryContext(ordinal));
      took.accept("context");
      driver.setCurrent(context);
      byte[] cubin = PipelineCache.standard().compileFor(device, KernelSource.resource(KernelSource.BASELINES),
          KernelSource.BASELINES, List.of()).cubin();
      MemorySegment module = driver.loadModule(cubin);
      releases.add(() -> driver.unloadModule(module));
      took.accept("module");
      MemorySegment oneshot = driver.function(module, "vyre_oneshot_nop");
      MemorySegment pingpong = driver.function(module, "vyre_pingpong");
      MemorySegment stream = driver.createStream();
      releases.add(() -> driver.destroyStream(stream));
      took.accept("stream");
      MemorySegment control = driver.allocMappedHost(4096);
      releases.add(() -> driver.freeHost(control));
      took.accept("control");
      MemorySegment ring = driver.allocMappedHost(SlotLayout.SLOT_BYTES);
      releases.add(() -> driver.freeHost(ring));
      took.accept("ring");
      control.fill((byte) 0);
      ring.fill((byte) 0);
      MemorySegment params = kernelParams(arena, driver.devicePointer(control), driver.devicePointer(ring), 0);

      long[] sync = new long[launchSamples];
      for (int i = -launchSamples / 10; i < launchSamples; i++) {
        Words.setRelease(ring, 0, SlotLayout.STATUS_PUBLISHED);
        long start = System.nanoTime();
        driver.check(driver.launchRaw(oneshot, 1, 32, stream, params), "cuLaunchKernel", "check the baseline kernel");
        driver.check(driver.synchronizeStreamRaw(stream), "cuStreamSynchronize", "check the baseline kernel");
        if (i >= 0) {
          sync[i] = System.nanoTime() - start;
        }
      }
      Arrays.sort(sync);
      results.put("launch_sync_p50_us", sync[launchSamples / 2] / 1e3);
      results.put("launch_sync_p99_us", sync[(int) (launchSamples * 0.99)] / 1e3);

      int asyncLaunches = launchSamples * 10;
      long start = System.nanoTime();
      for (int i = 0; i < asyncLaunches; i++) {
        driver.check(driver.launchRaw(oneshot, 1, 32, stream, params), "cuLaunchKernel", "check the baseline kernel");
      }
      driver.synchronizeStream(stream);
      double asyncSeconds = (System.nanoTime() - start) / 1e9;
      results.put("async_launch_mtasks_per_s", asyncLaunches / asyncSeconds / 1e6);

      int nodes = 1000;
      MemorySegment graph = driver.captureGraph(stream, () -> {
        for (int i = 0; i < nodes; i++) {
          driver.launch(oneshot, 1, 32, stream, params);
        }
      });
      releases.add(() -> driver.destroyGraphExec(graph));
      took.accept("graph");
      int replays = Math.max(10, asyncLaunches / nodes);
      driver.launchGraph(graph, stream);
      driver.synchronizeStream(stream);
      start = System.nanoTime();
      for (int i = 0; i < replays; i++) {
        driver.check(driver.launchGraphRaw(graph, stream), "cuGraphLaunch", "check the captured graph");
      }
      driver.synchronizeStream(stream);
      double graphSeconds = (System.nanoTime() - start) / 1e9;
      results.put("cuda_graph_1000_nodes_mtasks_per_s", (double) replays * nodes / graphSeconds / 1e6);

      control.fill((byte) 0);
      MemorySegment pingParams = pingPongParams(arena, driver.devicePointer(control), pingPongSamples);
      driver.launch(pingpong, 1, 32, stream, pingParams);
      long[] trips = new long[pingPongSamples];
      IdleStrategy spin = IdleStrategy.busySpin();
      for (int i = 1; i <= pingPongSamples; i++) {
        long begin = System.nanoTime();
        Words.setRelease(control, 0, i);
        while (Words.getAcquire(control, 32) != i) {
          spin.idle();
        }
        trips[i - 1] = System.nanoTime() - begin;
      }
      driver.synchronizeStream(stream);
      long[] measured = Arrays.copyOfRange(trips, Math.min(1000, pingPongSamples / 10), pingPongSamples);
      Arrays.sort(measured);
      results.put("pingpong_floor_p50_us", measured[measured.length / 2] / 1e3);
      results.put("pingpong_floor_p99_us", measured[(int) (measured.length * 0.99)] / 1e3);
      results.put("pingpong_floor_min_us", measured[0] / 1e3);
    } catch (RuntimeException | Error e) {
      releases.releaseAfter(e);
      throw e;
    }
    releases.releaseAll();
    return results;
  }

  private static MemorySegment kernelParams(Arena arena, long control, long ring, int slot) {
    MemorySegment controlArg = arena.allocate(JAVA_LONG);
    controlArg.set(JAVA_LONG, 0, control);
    MemorySegment ringArg = arena.allocate(JAVA_LONG);
    ringArg.set(JAVA_LONG, 0, ring);
    MemorySegment slotArg = arena.allocate(JAVA_INT);
    slotArg.set(JAVA_INT, 0, slot);
    MemorySegment params = arena.allocate(ADDRESS, 3);
    params.setAtIndex(ADDRESS, 0, controlArg);
    params.setAtIndex(ADDRESS, 1, ringArg);
    params.setAtIndex(ADDRESS, 2, slotArg);
    return params;
  }

  /** h2d flag at word 0, d2h answer at word 32 (its own 128-byte line). */
  private static MemorySegment pingPongParams(Arena arena, long flags, int rounds) {
    return kernelParams(arena, flags, flags + 128, rounds);
  }
}

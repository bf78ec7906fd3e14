package dev.vyre.cuda.graph;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.vyre.cuda.CudaDevice;
import dev.vyre.cuda.KernelSource;
import dev.vyre.cuda.PipelineCache;
import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.cuda.internal.CudaContext;
import dev.vyre.cuda.internal.Releases;
import dev.vyre.cuda.internal.ResidentKernels;
import dev.vyre.driver.error.PipelineException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The compiled frontier kernel on the selected device: the primary context retained, the module
 * (NVRTC through the pipeline cache, so a warm start skips the compiler), its four entry points,
 * and the launches and copies the engine makes. Everything runs on the context's default stream, so
 * copies, memsets and launches are ordered without events. Not thread-safe: the engine calls it
 * under its lock.
 */
final class FrontierKernel implements AutoCloseable {

  /** Threads a block; the grid is as many blocks as fit on the device at once. */
  static final int BLOCK = 1024;
  private static final int DECIDE_BLOCK = 256;

  private final CudaDriver driver;
  private final CudaDevice device;
  private final Releases releases = new Releases();
  private final CudaContext context;
  private final MemorySegment run;
  private final MemorySegment level;
  private final MemorySegment decide;
  private final MemorySegment afforest;
  private final int grid;
  private final int afforestGrid;

  FrontierKernel() {
    driver = CudaDriver.load();
    device = CudaDevice.query(driver, CudaDevice.selectedOrdinal());
    if (!device.cooperativeLaunch()) {
      throw PipelineException.backend(device.describe() + " cannot launch cooperative kernels, which the frontier"
          + " kernel is. Fix: use --backend reference, or a GPU of compute capability 6.0 or newer");
    }
    try {
      context = CudaContext.retain(driver, device.ordinal());
      releases.add(context::release);
      byte[] cubin = PipelineCache.standard().compileFor(device, KernelSource.frontier(), KernelSource.FRONTIER,
          List.of()).cubin();
      MemorySegment module = driver.loadModule(cubin);
      releases.add(() -> driver.unloadModule(module));
      run = driver.function(module, "vyre_frontier_run");
      level = driver.function(module, "vyre_frontier_level");
      decide = driver.function(module, "vyre_frontier_decide_batch");
      afforest = driver.function(module, "vyre_afforest_run");
      grid = driver.maxActiveBlocksPerSm(run, BLOCK) * device.multiprocessors();
      afforestGrid = driver.maxActiveBlocksPerSm(afforest, BLOCK) * device.multiprocessors();
      if (grid == 0 || afforestGrid == 0) {
        throw PipelineException.backend("the frontier kernel fits no block of " + BLOCK + " threads on "
            + device.describe() + ". Fix: use --backend reference");
      }
    } catch (RuntimeException | Error e) {
      releases.releaseAfter(e);
      throw e;
    }
  }

  CudaDriver driver() {
    return driver;
  }

  CudaDevice device() {
    return device;
  }

  /** Blocks of the persistent kernel and of a grid-wide level. */
  int grid() {
    return grid;
  }

  /** Makes the context current on the calling thread (each public call of the engine does). */
  void enter() {
    context.makeCurrent();
  }

  /** The persistent kernel: init, calibration and (unless calibrateOnly) every level; waits for it. */
  void runCooperative(FrontierKernelParams params) {
    launchCooperativeAndWait(run, grid, params);
  }

  /** Afforest's cooperative kernel, every phase in one launch (as many blocks as fit of its own); waits for it. */
  void runAfforest(FrontierKernelParams params) {
    launchCooperativeAndWait(afforest, afforestGrid, params);
  }

  private void launchCooperativeAndWait(MemorySegment function, int blocks, FrontierKernelParams params) {
    // Every block must be resident at once: beside a persistent megakernel the launch would wait for ever.
    ResidentKernels.requireIdle(device.ordinal(), "the frontier kernel's cooperative launch");
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment args = arena.allocate(ADDRESS, 1);
      args.setAtIndex(ADDRESS, 0, params.pack(arena));
      driver.launchCooperative(function, blocks, BLOCK, 0, MemorySegment.NULL, args);
      driver.synchronizeContext();
    }
  }

  /** One level of the per-level baseline as an ordinary launch (a grid of one block for FusedWave); waits for it. */
  void runLevel(FrontierKernelParams params, int levelIndex, int topology, boolean oneBlock) {
    ResidentKernels.requireIdle(device.ordinal(), "the frontier kernel's per-level launch");
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment levelArg = arena.allocate(JAVA_INT);
      levelArg.set(JAVA_INT, 0, levelIndex);
      MemorySegment topologyArg = arena.allocate(JAVA_INT);
      topologyArg.set(JAVA_INT, 0, topology);
      MemorySegment args = arena.allocate(ADDRESS, 3);
      args.setAtIndex(ADDRESS, 0, params.pack(arena));
      args.setAtIndex(ADDRESS, 1, levelArg);
      args.setAtIndex(ADDRESS, 2, topologyArg);
      driver.launch(level, oneBlock ? 1 : grid, BLOCK, MemorySegment.NULL, args);
      driver.synchronizeContext();
    }
  }

  /** The decision port over {@code rows} input rows in device memory; waits for it. */
  void decideBatch(long in, long out, long rows) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment inArg = arena.allocate(JAVA_LONG);
      inArg.set(JAVA_LONG, 0, in);
      MemorySegment outArg = arena.allocate(JAVA_LONG);
      outArg.set(JAVA_LONG, 0, out);
      MemorySegment rowsArg = arena.allocate(JAVA_LONG);
      rowsArg.set(JAVA_LONG, 0, rows);
      MemorySegment args = arena.allocate(ADDRESS, 3);
      args.setAtIndex(ADDRESS, 0, inArg);
      args.setAtIndex(ADDRESS, 1, outArg);
      args.setAtIndex(ADDRESS, 2, rowsArg);
      int blocks = (int) Math.max(1, Math.min(65_535, (rows + DECIDE_BLOCK - 1) / DECIDE_BLOCK));
      driver.launch(decide, blocks, DECIDE_BLOCK, MemorySegment.NULL, args);
      driver.synchronizeContext();
    }
  }

  long[] readLongs(long pointer, long count) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment host = arena.allocate(JAVA_LONG, Math.max(1, count));
      if (count > 0) {
        driver.copyToHost(host, pointer, count * Long.BYTES);
      }
      return count == 0 ? new long[0] : host.toArray(JAVA_LONG);
    }
  }

  int[] readInts(long pointer, long count) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment host = arena.allocate(JAVA_INT, Math.max(1, count));
      if (count > 0) {
        driver.copyToHost(host, pointer, count * Integer.BYTES);
      }
      return count == 0 ? new int[0] : host.toArray(JAVA_INT);
    }
  }

  void writeLongs(long pointer, long[] values) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment host = arena.allocate(JAVA_LONG, Math.max(1, values.length));
      MemorySegment.copy(values, 0, host, JAVA_LONG, 0, values.length);
      driver.copyToDevice(pointer, host, (long) values.length * Long.BYTES);
    }
  }

  @Override
  public void close() {
    releases.releaseAll();
  }
}

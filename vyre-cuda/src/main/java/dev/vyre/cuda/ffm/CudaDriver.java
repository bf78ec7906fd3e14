package dev.vyre.cuda.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.vyre.driver.error.DeviceException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The CUDA driver API ({@code libcuda.so.1}) through FFM. Versioned symbols ({@code _v2}) are
 * bound by their exported names. Every call checks its {@code CUresult} and turns a failure into
 * a {@link DeviceException} with the code's name, the call and a {@code Fix:} hint. Loaded once,
 * on first use; {@link #load()} reports why it cannot be when the driver is missing.
 */
public final class CudaDriver {

  public static final int CUDA_SUCCESS = 0;
  public static final int CUDA_ERROR_NOT_READY = 600;
  /** CU_EVENT_DISABLE_TIMING. */
  public static final int EVENT_DISABLE_TIMING = 2;

  public static final int ATTR_MAX_THREADS_PER_BLOCK = 1;
  public static final int ATTR_MULTIPROCESSOR_COUNT = 16;
  public static final int ATTR_CAN_MAP_HOST_MEMORY = 19;
  public static final int ATTR_PCI_BUS_ID = 33;
  public static final int ATTR_COMPUTE_CAPABILITY_MAJOR = 75;
  public static final int ATTR_COMPUTE_CAPABILITY_MINOR = 76;
  public static final int ATTR_COOPERATIVE_LAUNCH = 95;
  public static final int ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
  private static final int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
  public static final int MEMHOSTALLOC_PORTABLE = 0x01;
  public static final int MEMHOSTALLOC_DEVICEMAP = 0x02;
  public static final int STREAM_NON_BLOCKING = 0x1;

  private static volatile CudaDriver instance;
  private static volatile DeviceException loadFailure;

  private final MethodHandle cuInit;
  private final MethodHandle cuDriverGetVersion;
  private final MethodHandle cuDeviceGetCount;
  private final MethodHandle cuDeviceGet;
  private final MethodHandle cuDeviceGetName;
  private final MethodHandle cuDeviceGetAttribute;
  private final MethodHandle cuDeviceTotalMem;
  private final MethodHandle cuDevicePrimaryCtxRetain;
  private final MethodHandle cuDevicePrimaryCtxRelease;
  private final MethodHandle cuDevicePrimaryCtxReset;
  private final MethodHandle cuCtxSetCurrent;
  private final MethodHandle cuCtxSynchronize;
  private final MethodHandle cuMemAlloc;
  private final MethodHandle cuMemFree;
  private final MethodHandle cuMemGetInfo;
  private final MethodHandle cuMemHostAlloc;
  private final MethodHandle cuMemFreeHost;
  private final MethodHandle cuMemHostGetDevicePointer;
  private final MethodHandle cuMemcpyHtoD;
  private final MethodHandle cuMemcpyDtoH;
  private final MethodHandle cuMemcpyHtoDAsync;
  private final MethodHandle cuEventCreate;
  private final MethodHandle cuEventRecord;
  private final MethodHandle cuEventQuery;
  private final MethodHandle cuEventSynchronize;
  private final MethodHandle cuEventDestroy;
  private final MethodHandle cuMemsetD8;
  private final MethodHandle cuModuleLoadData;
  private final MethodHandle cuModuleUnload;
  private final MethodHandle cuModuleGetFunction;
  private final MethodHandle cuLaunchKernel;
  private final MethodHandle cuLaunchCooperativeKernel;
  private final MethodHandle cuOccupancyMaxActiveBlocksPerMultiprocessor;
  private final MethodHandle cuFuncSetAttribute;
  private final MethodHandle cuStreamCreate;
  private final MethodHandle cuStreamDestroy;
  private final MethodHandle cuStreamQuery;
  private final MethodHandle cuStreamSynchronize;
  private final MethodHandle cuStreamBeginCapture;
  private final MethodHandle cuStreamEndCapture;
  private final MethodHandle cuGraphInstantiateWithFlags;
  private final MethodHandle cuGraphLaunch;
  private final MethodHandle cuGraphExecDestroy;
  private final MethodHandle cuGraphDestroy;
  private final MethodHandle cuGetErrorName;
  private final MethodHandle cuGetErrorString;

  private CudaDriver(SymbolLookup lib) {
    Binder b = new Binder(lib);
    cuInit = b.bind("cuInit", JAVA_INT);
    cuDriverGetVersion = b.bind("cuDriverGetVersion", ADDRESS);
    cuDeviceGetCount = b.bind("cuDeviceGetCount", ADDRESS);
    cuDeviceGet = b.bind("cuDeviceGet", ADDRESS, JAVA_INT);
    cuDeviceGetName = b.bind("cuDeviceGetName", ADDRESS, JAVA_INT, JAVA_INT);
    cuDeviceGetAttribute = b.bind("cuDeviceGetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
    cuDeviceTotalMem = b.bind("cuDeviceTotalMem_v2", ADDRESS, JAVA_INT);
    cuDevicePrimaryCtxRetain = b.bind("cuDevicePrimaryCtxRetain", ADDRESS, JAVA_INT);
    cuDevicePrimaryCtxRelease = b.bind("cuDevicePrimaryCtxRelease_v2", JAVA_INT);
    cuDevicePrimaryCtxReset = b.bind("cuDevicePrimaryCtxReset_v2", JAVA_INT);
    cuCtxSetCurrent = b.bind("cuCtxSetCurrent", ADDRESS);
    cuCtxSynchronize = b.bind("cuCtxSynchronize");
    cuMemAlloc = b.bind("cuMemAlloc_v2", ADDRESS, JAVA_LONG);
    cuMemFree = b.bind("cuMemFree_v2", JAVA_LONG);
    cuMemGetInfo = b.bind("cuMemGetInfo_v2", ADDRESS, ADDRESS);
    cuMemHostAlloc = b.bind("cuMemHostAlloc", ADDRESS, JAVA_LONG, JAVA_INT);
    cuMemFreeHost = b.bind("cuMemFreeHost", ADDRESS);
    cuMemHostGetDevicePointer = b.bind("cuMemHostGetDevicePointer_v2", ADDRESS, ADDRESS, JAVA_INT);
    cuMemcpyHtoD = b.bind("cuMemcpyHtoD_v2", JAVA_LONG, ADDRESS, JAVA_LONG);
    cuMemcpyDtoH = b.bind("cuMemcpyDtoH_v2", ADDRESS, JAVA_LONG, JAVA_LONG);
    cuMemcpyHtoDAsync = b.bind("cuMemcpyHtoDAsync_v2", JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);
    cuEventCreate = b.bind("cuEventCreate", ADDRESS, JAVA_INT);
    cuEventRecord = b.bind("cuEventRecord", ADDRESS, ADDRESS);
    cuEventQuery = b.bind("cuEventQuery", ADDRESS);
    cuEventSynchronize = b.bind("cuEventSynchronize", ADDRESS);
    cuEventDestroy = b.bind("cuEventDestroy_v2", ADDRESS);
    cuMemsetD8 = b.bind("cuMemsetD8_v2", JAVA_LONG, JAVA_INT, JAVA_LONG);
    cuModuleLoadData = b.bind("cuModuleLoadData", ADDRESS, ADDRESS);
    cuModuleUnload = b.bind("cuModuleUnload", ADDRESS);
    cuModuleGetFunction = b.bind("cuModuleGetFunction", ADDRESS, ADDRESS, ADDRESS);
    cuLaunchKernel = b.bind("cuLaunchKernel", ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    cuLaunchCooperativeKernel = b.bind("cuLaunchCooperativeKernel", ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
    cuOccupancyMaxActiveBlocksPerMultiprocessor = b.bind("cuOccupancyMaxActiveBlocksPerMultiprocessor", ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG);
    cuFuncSetAttribute = b.bind("cuFuncSetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
    cuStreamCreate = b.bind("cuStreamCreate", ADDRESS, JAVA_INT);
    cuStreamDestroy = b.bind("cuStreamDestroy_v2", ADDRESS);
    cuStreamQuery = b.bind("cuStreamQuery", ADDRESS);
    cuStreamSynchronize = b.bind("cuStreamSynchronize", ADDRESS);
    cuStreamBeginCapture = b.bind("cuStreamBeginCapture_v2", ADDRESS, JAVA_INT);
    cuStreamEndCapture = b.bind("cuStreamEndCapture", ADDRESS, ADDRESS);
    cuGraphInstantiateWithFlags = b.bind("cuGraphInstantiateWithFlags", ADDRESS, ADDRESS, JAVA_LONG);
    cuGraphLaunch = b.bind("cuGraphLaunch", ADDRESS, ADDRESS);
    cuGraphExecDestroy = b.bind("cuGraphExecDestroy", ADDRESS);
    cuGraphDestroy = b.bind("cuGraphDestroy", ADDRESS);
    cuGetErrorName = b.bind("cuGetErrorName", JAVA_INT, ADDRESS);
    cuGetErrorString = b.bind("cuGetErrorString", JAVA_INT, ADDRESS);
  }

  /** The driver, loaded and initialized ({@code cuInit(0)}) on first use. */
  public static CudaDriver load() {
    CudaDriver driver = instance;
    if (driver != null) {
      return driver;
    }
    synchronized (CudaDriver.class) {
      if (instance != null) {
        return instance;
      }
      if (loadFailure != null) {
        throw loadFailure;
      }
      try {
        SymbolLookup lib = SymbolLookup.libraryLookup("libcuda.so.1", Arena.global());
        CudaDriver loaded = new CudaDriver(lib);
        loaded.check(loaded.invokeInt(loaded.cuInit, 0), "cuInit", "make sure the NVIDIA driver is loaded and a GPU is visible (nvidia-smi)");
        instance = loaded;
        return loaded;
      } catch (IllegalArgumentException e) {
        loadFailure = DeviceException.unavailable("CUDA driver", "libcuda.so.1 was not found on the library path",
            "install the NVIDIA driver (it ships libcuda.so.1) or add its directory to LD_LIBRARY_PATH", e);
        throw loadFailure;
      } catch (DeviceException e) {
        loadFailure = e;
        throw e;
      }
    }
  }

  // ---------------------------------------------------------------- error handling

  /** Throws a {@link DeviceException} naming the code when {@code result} is not CUDA_SUCCESS. */
  public void check(int result, String call, String fix) {
    if (result != CUDA_SUCCESS) {
      throw DeviceException.callFailed("CUDA", call, result, errorName(result), errorString(result), fix);
    }
  }

  public String errorName(int result) {
    return describe(cuGetErrorName, result, "CUDA_ERROR_" + result);
  }

  public String errorString(int result) {
    return describe(cuGetErrorString, result, "");
  }

  private String describe(MethodHandle handle, int result, String fallback) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      int rc = (int) handle.invokeExact(result, out);
      MemorySegment text = out.get(ADDRESS, 0);
      return rc == CUDA_SUCCESS && !text.equals(MemorySegment.NULL) ? text.reinterpret(4096).getString(0) : fallback;
    } catch (Throwable t) {
      return fallback;
    }
  }

  // ---------------------------------------------------------------- devices and contexts

  public int driverVersion() {
    return callForInt(cuDriverGetVersion, "cuDriverGetVersion", "update the NVIDIA driver");
  }

  public int deviceCount() {
    return callForInt(cuDeviceGetCount, "cuDeviceGetCount",
        "check that a GPU is visible (nvidia-smi, CUDA_VISIBLE_DEVICES)");
  }

  public int device(int ordinal) {
    return callForInt(cuDeviceGet, "cuDeviceGet", "pick a device ordinal below the device count", ordinal);
  }

  public String deviceName(int device) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(256);
      check(invokeInt(cuDeviceGetName, out, 256, device), "cuDeviceGetName", "check the device ordinal");
      return out.getString(0);
    }
  }

  public int attribute(int device, int attribute) {
    return callForInt(cuDeviceGetAttribute, "cuDeviceGetAttribute(" + attribute + ")",
        "check the device ordinal", attribute, device);
  }

  public long totalMemory(int device) {
    return callForLong(cuDeviceTotalMem, "cuDeviceTotalMem_v2", "check the device ordinal", device);
  }

  public MemorySegment retainPrimaryContext(int device) {
    return callForAddress(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",
        "check that the GPU is not in exclusive-process mode held by another process", device);
  }

  public void releasePrimaryContext(int device) {
    check(invokeInt(cuDevicePrimaryCtxRelease, device), "cuDevicePrimaryCtxRelease_v2", "release each retained context once");
  }

  /** Releases a retain without checking: after {@link #resetPrimaryContext}, which does not drop retains. */
  public int releasePrimaryContextRaw(int device) {
    return invokeInt(cuDevicePrimaryCtxRelease, device);
  }

  /** Destroys every allocation and kernel of the primary context: the last resort after a stall. */
  public int resetPrimaryContext(int device) {
    return invokeInt(cuDevicePrimaryCtxReset, device);
  }

  /** On every poll of a session (health checks, copy queries, snapshots): invokeExact, no boxing. */
  public void setCurrent(MemorySegment context) {
    int result;
    try {
      result = (int) cuCtxSetCurrent.invokeExact(context);
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
    check(result, "cuCtxSetCurrent", "retain the context before making it current");
  }

  public void synchronizeContext() {
    check(invokeInt(cuCtxSynchronize), "cuCtxSynchronize", "an earlier kernel failed; see the error name");
  }

  // ---------------------------------------------------------------- memory

  public long allocDevice(long bytes) {
    return callForLong(cuMemAlloc, "cuMemAlloc_v2(" + bytes + ")",
        "free device memory or request a smaller ring", bytes);
  }

  public void freeDevice(long pointer) {
    check(invokeInt(cuMemFree, pointer), "cuMemFree_v2", "free each device allocation once");
  }

  /** Free device memory of the current context's device, in bytes (cuMemGetInfo's free). */
  public long freeDeviceMemory() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment free = arena.allocate(JAVA_LONG);
      MemorySegment total = arena.allocate(JAVA_LONG);
      check(invokeInt(cuMemGetInfo, free, total), "cuMemGetInfo_v2", "make a context current first");
      return free.get(JAVA_LONG, 0);
    }
  }

  /** Pinned host memory mapped into the device's address space (PORTABLE | DEVICEMAP). */
  public MemorySegment allocMappedHost(long bytes) {
    return callForAddress(cuMemHostAlloc, "cuMemHostAlloc(" + bytes + ")",
        "raise the locked-memory limit (ulimit -l) or request less pinned memory", bytes, MEMHOSTALLOC_PORTABLE | MEMHOSTALLOC_DEVICEMAP).reinterpret(bytes);
  }

  public void freeHost(MemorySegment host) {
    check(invokeInt(cuMemFreeHost, host), "cuMemFreeHost", "free each pinned allocation once");
  }

  public long devicePointer(MemorySegment host) {
    return callForLong(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2",
        "allocate the buffer with cuMemHostAlloc(DEVICEMAP) on a device that can map host memory", host, 0);
  }

  public void copyToDevice(long device, MemorySegment host, long bytes) {
    check(invokeInt(cuMemcpyHtoD, device, host, bytes), "cuMemcpyHtoD_v2", "check the destination allocation's size");
  }

  public void copyToHost(MemorySegment host, long device, long bytes) {
    check(invokeInt(cuMemcpyDtoH, host, device, bytes), "cuMemcpyDtoH_v2", "check the source allocation's size");
  }

  /** Queues a copy from pinned host memory on {@code stream}; the copy engine runs it while the caller goes on. */
  public void copyToDeviceAsync(long device, MemorySegment pinnedHost, long bytes, MemorySegment stream) {
    try {
      check((int) cuMemcpyHtoDAsync.invokeExact(device, pinnedHost, bytes, stream), "cuMemcpyHtoDAsync_v2",
          "check the destination allocation's size");
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  /** An event without timing (the cheapest kind), for asking whether a stream got past a point. */
  public MemorySegment createEvent() {
    return callForAddress(cuEventCreate, "cuEventCreate", "make a context current first", EVENT_DISABLE_TIMING);
  }

  public void recordEvent(MemorySegment event, MemorySegment stream) {
    try {
      check((int) cuEventRecord.invokeExact(event, stream), "cuEventRecord", "record on a stream of the event's context");
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  /** True when the work before the event's last record finished; false while it runs. */
  public boolean eventReached(MemorySegment event) {
    int result;
    try {
      result = (int) cuEventQuery.invokeExact(event);
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
    if (result == CUDA_ERROR_NOT_READY) {
      return false;
    }
    check(result, "cuEventQuery", "check the stream the event was recorded on");
    return true;
  }

  public void synchronizeEvent(MemorySegment event) {
    check(invokeInt(cuEventSynchronize, event), "cuEventSynchronize", "check the stream the event was recorded on");
  }

  public void destroyEvent(MemorySegment event) {
    check(invokeInt(cuEventDestroy, event), "cuEventDestroy_v2", "destroy each event once");
  }

  public void memset(long device, int value, long bytes) {
    check(invokeInt(cuMemsetD8, device, value, bytes), "cuMemsetD8_v2", "check the allocation's size");
  }

  // ---------------------------------------------------------------- modules, launches, streams

  /** Loads a CUBIN (the driver copies the image, so it need not outlive the call). */
  public MemorySegment loadModule(byte[] image) {
    try (Arena arena = Arena.ofConfined()) {
      return loadModule(arena.allocate(image.length).copyFrom(MemorySegment.ofArray(image)));
    }
  }

  /** Loads PTX or CUBIN bytes (PTX must be NUL-terminated). */
  public MemorySegment loadModule(MemorySegment image) {
    return callForAddress(cuModuleLoadData, "cuModuleLoadData",
        "rebuild the kernel for this device's architecture (delete the pipeline cache)", image);
  }

  public void unloadModule(MemorySegment module) {
    check(invokeInt(cuModuleUnload, module), "cuModuleUnload", "unload each module once");
  }

  public MemorySegment function(MemorySegment module, String name) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      check(invokeInt(cuModuleGetFunction, out, module, arena.allocateFrom(name)), "cuModuleGetFunction(" + name + ")",
          "declare the kernel extern \"C\" so its name is not mangled");
      return out.get(ADDRESS, 0);
    }
  }

  public int maxActiveBlocksPerSm(MemorySegment function, int blockSize) {
    return maxActiveBlocksPerSm(function, blockSize, 0);
  }

  /** The same for blocks launched with {@code sharedBytes} of dynamic shared memory each. */
  public int maxActiveBlocksPerSm(MemorySegment function, int blockSize, int sharedBytes) {
    return callForInt(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
        "use a block size the kernel supports", function, blockSize, (long) sharedBytes);
  }

  /** Lets {@code function} be launched with up to {@code bytes} of dynamic shared memory (above 48 KiB needs this). */
  public void allowDynamicSharedBytes(MemorySegment function, int bytes) {
    check(invokeInt(cuFuncSetAttribute, function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes), "cuFuncSetAttribute",
        "ask for no more shared memory per block than the device has (vyre doctor)");
  }

  /** Returns the raw result so that hot loops (baselines) can check it without allocating. */
  public int launchRaw(MemorySegment function, int grid, int block, MemorySegment stream, MemorySegment params) {
    return launchRaw(function, grid, block, 0, stream, params);
  }

  private int launchRaw(MemorySegment function, int grid, int block, int sharedBytes, MemorySegment stream,
      MemorySegment params) {
    try {
      return (int) cuLaunchKernel.invokeExact(function, grid, 1, 1, block, 1, 1, sharedBytes, stream, params,
          MemorySegment.NULL);
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  public void launch(MemorySegment function, int grid, int block, MemorySegment stream, MemorySegment params) {
    launch(function, grid, block, 0, stream, params);
  }

  /** The same with {@code sharedBytes} of dynamic shared memory per block. */
  public void launch(MemorySegment function, int grid, int block, int sharedBytes, MemorySegment stream, MemorySegment params) {
    check(launchRaw(function, grid, block, sharedBytes, stream, params), "cuLaunchKernel",
        "check the grid size and kernel parameters");
  }

  public void launchCooperative(MemorySegment function, int grid, int block, int sharedBytes, MemorySegment stream,
      MemorySegment params) {
    check(invokeInt(cuLaunchCooperativeKernel, function, grid, 1, 1, block, 1, 1, sharedBytes, stream, params),
        "cuLaunchCooperativeKernel", "launch no more blocks than can be co-resident (occupancy x SMs)");
  }

  public MemorySegment createStream() {
    return callForAddress(cuStreamCreate, "cuStreamCreate", "make a context current first", STREAM_NON_BLOCKING);
  }

  public void destroyStream(MemorySegment stream) {
    check(invokeInt(cuStreamDestroy, stream), "cuStreamDestroy_v2", "destroy each stream once");
  }

  /** CUDA_SUCCESS when the stream's work finished, CUDA_ERROR_NOT_READY while it runs, else the failure. */
  public int queryStream(MemorySegment stream) {
    try {
      return (int) cuStreamQuery.invokeExact(stream);
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  public int synchronizeStreamRaw(MemorySegment stream) {
    try {
      return (int) cuStreamSynchronize.invokeExact(stream);
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  /** Enqueues one graph launch and returns the raw result (hot loop of the graph baseline). */
  public int launchGraphRaw(MemorySegment exec, MemorySegment stream) {
    try {
      return (int) cuGraphLaunch.invokeExact(exec, stream);
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  public void synchronizeStream(MemorySegment stream) {
    check(synchronizeStreamRaw(stream), "cuStreamSynchronize", "an earlier launch on the stream failed; see the error name");
  }

  /** Captures what {@code body} enqueues on {@code stream} into an instantiated CUDA graph. */
  public MemorySegment captureGraph(MemorySegment stream, Runnable body) {
    try (Arena arena = Arena.ofConfined()) {
      check(invokeInt(cuStreamBeginCapture, stream, 0), "cuStreamBeginCapture_v2", "capture on a non-default stream");
      body.run();
      MemorySegment graph = arena.allocate(ADDRESS);
      check(invokeInt(cuStreamEndCapture, stream, graph), "cuStreamEndCapture", "enqueue only capturable work while capturing");
      MemorySegment exec = arena.allocate(ADDRESS);
      check(invokeInt(cuGraphInstantiateWithFlags, exec, graph.get(ADDRESS, 0), 0L), "cuGraphInstantiateWithFlags", "check the captured work");
      check(invokeInt(cuGraphDestroy, graph.get(ADDRESS, 0)), "cuGraphDestroy", "destroy each graph once");
      return exec.get(ADDRESS, 0);
    }
  }

  public void launchGraph(MemorySegment exec, MemorySegment stream) {
    check(invokeInt(cuGraphLaunch, exec, stream), "cuGraphLaunch", "instantiate the graph in this context");
  }

  public void destroyGraphExec(MemorySegment exec) {
    check(invokeInt(cuGraphExecDestroy, exec), "cuGraphExecDestroy", "destroy each graph once");
  }

  // ---------------------------------------------------------------- invocation

  // ---------------------------------------------------------------- out-parameter calls

  /** Calls a driver function whose first parameter receives an int, checks it, returns the int. */
  private int callForInt(MethodHandle handle, String call, String fix, Object... args) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_INT);
      check(invokeInt(handle, withOut(out, args)), call, fix);
      return out.get(JAVA_INT, 0);
    }
  }

  private long callForLong(MethodHandle handle, String call, String fix, Object... args) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_LONG);
      check(invokeInt(handle, withOut(out, args)), call, fix);
      return out.get(JAVA_LONG, 0);
    }
  }

  private MemorySegment callForAddress(MethodHandle handle, String call, String fix, Object... args) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      check(invokeInt(handle, withOut(out, args)), call, fix);
      return out.get(ADDRESS, 0);
    }
  }

  private static Object[] withOut(MemorySegment out, Object[] args) {
    Object[] all = new Object[args.length + 1];
    all[0] = out;
    System.arraycopy(args, 0, all, 1, args.length);
    return all;
  }

  static int invokeInt(MethodHandle handle, Object... args) {
    try {
      return (int) handle.invokeWithArguments(args);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  /** Binds C functions returning int (CUresult). */
  static final class Binder {
    private final SymbolLookup lib;
    private final String api;
    private final Linker linker = Linker.nativeLinker();

    Binder(SymbolLookup lib) {
      this(lib, "CUDA driver");
    }

    Binder(SymbolLookup lib, String api) {
      this.lib = lib;
      this.api = api;
    }

    MethodHandle bind(String name, java.lang.foreign.MemoryLayout... args) {
      MemorySegment symbol = lib.find(name).orElseThrow(() -> DeviceException.unavailable(api,
          "symbol " + name + " is missing from the loaded library", "install a CUDA 12 or newer driver and toolkit", null));
      return linker.downcallHandle(symbol, FunctionDescriptor.of(JAVA_INT, args));
    }
  }
}

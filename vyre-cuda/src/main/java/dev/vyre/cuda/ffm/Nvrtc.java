package dev.vyre.cuda.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.vyre.driver.error.DeviceException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * NVRTC ({@code libnvrtc.so*}) through FFM: compiles CUDA C to CUBIN for the device at run time.
 * Found through {@code VYRE_NVRTC} (a file), the library path, or under {@code /usr/local/cuda*}.
 */
public final class Nvrtc {

  private static volatile Nvrtc instance;
  private static volatile DeviceException loadFailure;

  private final String location;
  private final MethodHandle nvrtcVersion;
  private final MethodHandle nvrtcCreateProgram;
  private final MethodHandle nvrtcCompileProgram;
  private final MethodHandle nvrtcGetProgramLogSize;
  private final MethodHandle nvrtcGetProgramLog;
  private final MethodHandle nvrtcGetCUBINSize;
  private final MethodHandle nvrtcGetCUBIN;
  private final MethodHandle nvrtcDestroyProgram;
  private final MethodHandle nvrtcGetErrorString;

  private Nvrtc(SymbolLookup lib, String location) {
    this.location = location;
    CudaDriver.Binder b = new CudaDriver.Binder(lib, "NVRTC");
    nvrtcVersion = b.bind("nvrtcVersion", ADDRESS, ADDRESS);
    nvrtcCreateProgram = b.bind("nvrtcCreateProgram", ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
    nvrtcCompileProgram = b.bind("nvrtcCompileProgram", ADDRESS, JAVA_INT, ADDRESS);
    nvrtcGetProgramLogSize = b.bind("nvrtcGetProgramLogSize", ADDRESS, ADDRESS);
    nvrtcGetProgramLog = b.bind("nvrtcGetProgramLog", ADDRESS, ADDRESS);
    nvrtcGetCUBINSize = b.bind("nvrtcGetCUBINSize", ADDRESS, ADDRESS);
    nvrtcGetCUBIN = b.bind("nvrtcGetCUBIN", ADDRESS, ADDRESS);
    nvrtcDestroyProgram = b.bind("nvrtcDestroyProgram", ADDRESS);
    nvrtcGetErrorString = lib.find("nvrtcGetErrorString").map(symbol -> java.lang.foreign.Linker.nativeLinker().downcallHandle(symbol,
        java.lang.foreign.FunctionDescriptor.of(ADDRESS, JAVA_INT))).orElse(null);
  }

  /** NVRTC, found and bound on first use. */
  public static Nvrtc load() {
    Nvrtc nvrtc = instance;
    if (nvrtc != null) {
      return nvrtc;
    }
    synchronized (Nvrtc.class) {
      if (instance != null) {
        return instance;
      }
      if (loadFailure != null) {
        throw loadFailure;
      }
      try {
        instance = load(candidates());
        return instance;
      } catch (DeviceException e) {
        loadFailure = e;
        throw e;
      }
    }
  }

  /**
   * The first of {@code candidates} that opens and has every symbol NVRTC needs. A library that
   * opens but lacks one (another library of that name, a stub, a file VYRE_NVRTC names by mistake)
   * is closed again and the next one tried; the error lists each candidate and why it failed.
   */
  static Nvrtc load(List<String> candidates) {
    List<String> failures = new ArrayList<>();
    for (String candidate : candidates) {
      // Shared: the chosen library's functions are called from any thread. Its arena is never
      // closed (the library stays loaded, as with the global arena); a rejected one's is, so
      // the rejected library is unloaded again.
      Arena library = Arena.ofShared();
      try {
        return new Nvrtc(SymbolLookup.libraryLookup(candidate, library), candidate);
      } catch (IllegalArgumentException e) {
        failures.add(candidate + " (not found, or not a loadable library)");
        library.close();
      } catch (DeviceException e) {
        failures.add(candidate + " (opened, but " + e.fields().get("why") + ")");
        library.close();
      }
    }
    throw DeviceException.unavailable("NVRTC", failures.isEmpty() ? "no candidate library to try"
            : "no candidate is a usable libnvrtc; tried " + String.join("; ", failures),
        "install the CUDA toolkit's NVRTC (libnvrtc.so) or set VYRE_NVRTC=/path/to/libnvrtc.so", null);
  }

  private static List<String> candidates() {
    List<String> names = new ArrayList<>();
    String explicit = System.getenv("VYRE_NVRTC");
    if (explicit != null && !explicit.isBlank()) {
      names.add(explicit);
    }
    for (String soname : new String[] {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}) {
      names.add(soname);
    }
    try (DirectoryStream<Path> roots = Files.newDirectoryStream(Path.of("/usr/local"), "cuda*")) {
      for (Path root : roots) {
        for (String dir : new String[] {"lib64", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"}) {
          Path folder = root.resolve(dir);
          if (Files.isDirectory(folder)) {
            try (DirectoryStream<Path> libs = Files.newDirectoryStream(folder, "libnvrtc.so*")) {
              for (Path lib : libs) {
                if (!lib.getFileName().toString().contains("builtins")) {
                  names.add(lib.toString());
                }
              }
            }
          }
        }
      }
    } catch (IOException | SecurityException e) {
      // no /usr/local/cuda*: the library path candidates above are all there is
    }
    return names;
  }

  public String location() {
    return location;
  }

  /** "major.minor". */
  public String version() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment major = arena.allocate(JAVA_INT);
      MemorySegment minor = arena.allocate(JAVA_INT);
      check(CudaDriver.invokeInt(nvrtcVersion, major, minor), "nvrtcVersion", "reinstall NVRTC");
      return major.get(JAVA_INT, 0) + "." + minor.get(JAVA_INT, 0);
    }
  }

  /** Compiled device code and the compiler's log. */
  public record Compiled(byte[] cubin, String log) {}

  /** Compiles {@code source} with {@code options} (e.g. {@code --gpu-architecture=sm_90}) to CUBIN. */
  public Compiled compile(String source, String name, List<String> options) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment programOut = arena.allocate(ADDRESS);
      check(CudaDriver.invokeInt(nvrtcCreateProgram, programOut, arena.allocateFrom(source), arena.allocateFrom(name), 0,
          MemorySegment.NULL, MemorySegment.NULL), "nvrtcCreateProgram", "check the kernel source");
      MemorySegment program = programOut.get(ADDRESS, 0);
      try {
        MemorySegment optionArray = arena.allocate(ADDRESS, Math.max(1, options.size()));
        for (int i = 0; i < options.size(); i++) {
          optionArray.setAtIndex(ADDRESS, i, arena.allocateFrom(options.get(i)));
        }
        int result = CudaDriver.invokeInt(nvrtcCompileProgram, program, options.size(), optionArray);
        String log = log(arena, program);
        if (result != 0) {
          throw DeviceException.callFailed("NVRTC", "nvrtcCompileProgram(" + name + ")", result, errorName(result),
              log.strip(), "fix the CUDA C reported above (a user opcode's cudaBody is compiled into the kernel)");
        }
        MemorySegment size = arena.allocate(JAVA_LONG);
        check(CudaDriver.invokeInt(nvrtcGetCUBINSize, program, size), "nvrtcGetCUBINSize", "compile for a real architecture (sm_XX), not compute_XX");
        MemorySegment cubin = arena.allocate(size.get(JAVA_LONG, 0));
        check(CudaDriver.invokeInt(nvrtcGetCUBIN, program, cubin), "nvrtcGetCUBIN", "compile for a real architecture (sm_XX)");
        return new Compiled(cubin.toArray(ValueLayout.JAVA_BYTE), log);
      } finally {
        programOut.set(ADDRESS, 0, program);
        CudaDriver.invokeInt(nvrtcDestroyProgram, programOut);
      }
    }
  }

  private String log(Arena arena, MemorySegment program) {
    MemorySegment size = arena.allocate(JAVA_LONG);
    if (CudaDriver.invokeInt(nvrtcGetProgramLogSize, program, size) != 0 || size.get(JAVA_LONG, 0) <= 1) {
      return "";
    }
    MemorySegment text = arena.allocate(size.get(JAVA_LONG, 0));
    CudaDriver.invokeInt(nvrtcGetProgramLog, program, text);
    return text.getString(0);
  }

  private void check(int result, String call, String fix) {
    if (result != 0) {
      throw DeviceException.callFailed("NVRTC", call, result, errorName(result), "", fix);
    }
  }

  private String errorName(int result) {
    if (nvrtcGetErrorString == null) {
      return "NVRTC_ERROR_" + result;
    }
    try {
      MemorySegment text = (MemorySegment) nvrtcGetErrorString.invokeExact(result);
      return text.reinterpret(256).getString(0);
    } catch (Throwable t) {
      return "NVRTC_ERROR_" + result;
    }
  }
}

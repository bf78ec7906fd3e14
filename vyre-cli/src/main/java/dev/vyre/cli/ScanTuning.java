package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import dev.vyre.scan.ScanOptions;
import picocli.CommandLine.Option;

/** How {@code vyre scan} and {@code vyre bench scan} cut and feed their work; 0 or auto picks the backend's default. */
final class ScanTuning {

  @Option(names = "--chunk-size", defaultValue = "4194304", paramLabel = "BYTES",
      description = "Bytes read per chunk (default: ${DEFAULT-VALUE}).")
  long chunkBytes;

  @Option(names = "--task-size", defaultValue = "0", paramLabel = "BYTES",
      description = "Bytes per DFA_STEP task; a chunk is split into tasks that run in parallel "
          + "(default, or 0: 65536 on the reference backend, 4096 on a GPU).")
  long taskBytes;

  @Option(names = "--buffers", defaultValue = "0", paramLabel = "N",
      description = "Chunk buffers in flight on each device (default, or 0: two a core, 4 to 16, on the reference backend;"
          + " 32 on a GPU, shared by the GPUs of --devices with at least 16 each).")
  int buffers;

  @Option(names = "--stage", defaultValue = "auto", paramLabel = "MODE",
      description = "device: copy each chunk into GPU memory before scanning it; in-place: scan the pinned read "
          + "buffer; auto: device on a GPU (default: ${DEFAULT-VALUE}).")
  String stage;

  @Option(names = "--parallel-reads", defaultValue = "auto", paramLabel = "MODE",
      description = "on: io_uring worker threads copy several chunks at once; off: reads run in the scan's thread; "
          + "auto: the backend's default (default: ${DEFAULT-VALUE}).")
  String parallelReads;

  @Option(names = "--pack-readers", defaultValue = "auto", paramLabel = "N",
      description = "Threads that open and read small files, several packed into each chunk; 0: the scan's own "
          + "thread reads them; auto: a quarter of the cores, at most " + ScanOptions.MAX_PACK_READERS
          + " (default: ${DEFAULT-VALUE}).")
  String packReaders;

  /** Whether every option has its default value. */
  boolean isDefault() {
    return chunkBytes == ScanOptions.DEFAULT_CHUNK_BYTES && taskBytes == 0 && buffers == 0 && stage.equals("auto")
        && parallelReads.equals("auto") && packReaders.equals("auto");
  }

  ScanOptions options(String backendName, boolean keepHits) {
    return options(backendName, keepHits, 1);
  }

  /** The options of a job over {@code devices} kernels of the backend (the default buffers are per device). */
  ScanOptions options(String backendName, boolean keepHits, int devices) {
    if (chunkBytes < 1) {
      throw InputException.of("--chunk-size", chunkBytes + " bytes is not a chunk", "pass at least 1 byte (default 4194304)");
    }
    if (taskBytes < 0) {
      throw InputException.of("--task-size", taskBytes + " bytes is not a task", "pass at least 1 byte, or 0 for the backend's default");
    }
    if (buffers < 0) {
      throw InputException.of("--buffers", buffers + " buffers is not a count", "pass at least 1, or 0 for the backend's default");
    }
    ScanOptions defaults = ScanOptions.forBackend(backendName, devices);
    long task = taskBytes > 0 ? taskBytes : defaults.taskBytes();
    return ScanOptions.of(chunkBytes, task, buffers > 0 ? buffers : defaults.buffers(), keepHits)
        .withStageOnDevice(choice("--stage", stage, "device", "in-place", defaults.stageOnDevice()))
        .withParallelReads(choice("--parallel-reads", parallelReads, "on", "off", defaults.parallelReads()))
        .withPackReaders(packReaders.equals("auto") ? defaults.packReaders() : count("--pack-readers", packReaders));
  }

  private static int count(String option, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw InputException.of(option, "'" + value + "' is not auto or a number", "pass " + option + " auto or 0 to "
          + ScanOptions.MAX_PACK_READERS);
    }
  }

  private static boolean choice(String option, String value, String yes, String no, boolean auto) {
    return switch (value) {
      case "auto" -> auto;
      case String v when v.equals(yes) -> true;
      case String v when v.equals(no) -> false;
      default -> throw InputException.of(option, "'" + value + "' is not auto, " + yes + " or " + no,
          "pass " + option + " auto, " + yes + " or " + no);
    };
  }
}

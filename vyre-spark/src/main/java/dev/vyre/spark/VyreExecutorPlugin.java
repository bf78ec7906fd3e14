package dev.vyre.spark;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.MegakernelBuilder;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.resource.ResourceInformation;

/** The executor side of {@link VyrePlugin}: owns the executor's {@link ExecutorKernel}. */
final class VyreExecutorPlugin implements ExecutorPlugin {

  private static final System.Logger LOG = System.getLogger(VyreExecutorPlugin.class.getName());

  private ExecutorKernel kernel;

  @Override
  public void init(PluginContext context, Map<String, String> extraConf) {
    SparkConf conf = context.conf();
    ResourceInformation gpu = context.resources().get(VyrePlugin.GPU);
    String backend = conf.get(VyrePlugin.BACKEND, "auto");
    if (backend.equalsIgnoreCase("auto")) {
      // Spark's scheduling decides: an executor given a GPU must use it, one given none must not take one.
      backend = gpu != null ? "cuda" : "reference";
    }
    Backends.Choice choice = Backends.select(backend);
    MegakernelBuilder builder = Megakernel.builder();
    if (gpu != null && !choice.backend().name().equals("reference")) {
      builder.device(assignedDevice(gpu));
    }
    int cores = conf.getInt("spark.executor.cores", Runtime.getRuntime().availableProcessors());
    kernel = ExecutorKernel.start(builder, choice, conf.getInt(VyrePlugin.LANES, cores));
    // Which device an executor drives is Spark's choice; its log says what it got.
    LOG.log(System.Logger.Level.INFO, "vyre: executor " + context.executorID() + " kernel: " + kernel.kernel().describe());
  }

  /** The one GPU Spark's scheduling gave the executor, by its address (a CUDA device ordinal, as the discovery script lists them). */
  private static int assignedDevice(ResourceInformation gpu) {
    String[] addresses = gpu.addresses();
    if (addresses.length != 1) {
      throw InputException.of("spark.executor.resource.gpu.amount", "the executor was given " + addresses.length
          + " GPUs (" + String.join(",", addresses) + ") and runs one kernel on one", "set it to 1");
    }
    try {
      return Integer.parseInt(addresses[0].strip());
    } catch (NumberFormatException e) {
      throw InputException.of("spark.executor.resource.gpu.discoveryScript", "GPU address '" + addresses[0]
          + "' is not a CUDA device ordinal", "list GPUs by their nvidia-smi index, as discover-gpus.sh does");
    }
  }

  @Override
  public void shutdown() {
    if (kernel != null) {
      kernel.close();
      kernel = null;
    }
  }
}

package dev.vyre.spark;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.NotImplementedException;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.resource.ResourceInformation;

/** The executor side of {@link VyrePlugin}: owns the executor's {@link ExecutorKernel}. */
final class VyreExecutorPlugin implements ExecutorPlugin {

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
    if (gpu != null && !choice.backend().name().equals("reference")) {
      requireDefaultDevice(gpu);
    }
    int cores = conf.getInt("spark.executor.cores", Runtime.getRuntime().availableProcessors());
    kernel = ExecutorKernel.start(Megakernel.builder(), choice, conf.getInt(VyrePlugin.LANES, cores));
  }

  /**
   * The CUDA backend opens the device {@code VYRE_CUDA_DEVICE} names (default 0); a kernel on any
   * device Spark assigns waits for {@code Megakernel.builder().device(i)} (issue #26, every GPU of a
   * host). An executor whose one GPU is that device runs now, which is the case wherever each
   * executor sees only its own GPU (containers, CUDA_VISIBLE_DEVICES).
   */
  private static void requireDefaultDevice(ResourceInformation gpu) {
    String[] addresses = gpu.addresses();
    if (addresses.length != 1) {
      throw InputException.of("spark.executor.resource.gpu.amount", "the executor was given " + addresses.length
          + " GPUs (" + String.join(",", addresses) + ") and runs one kernel on one", "set it to 1");
    }
    String opened = System.getenv().getOrDefault("VYRE_CUDA_DEVICE", "0");
    if (!addresses[0].equals(opened)) {
      throw NotImplementedException.of("a kernel on GPU " + addresses[0] + " while the CUDA backend opens device "
          + opened + " (VYRE_CUDA_DEVICE)", 26, "give each executor one GPU that it sees as device 0 (a container,"
          + " or CUDA_VISIBLE_DEVICES per executor), or run one executor on GPU 0");
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

package dev.vyre.spark;

import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * The Spark plugin that gives every executor one vyre megakernel for its life
 * ({@code spark.plugins=dev.vyre.spark.VyrePlugin}): {@link VyreExecutorPlugin} starts it when the
 * executor starts, on the GPU Spark assigned the executor or on the reference backend where it
 * assigned none, and drains and closes it when the executor stops. The driver needs nothing of it.
 */
public final class VyrePlugin implements SparkPlugin {

  /** {@code auto} (the default: cuda on an executor Spark assigned a GPU, else reference), {@code reference} or {@code cuda}. */
  public static final String BACKEND = "spark.vyre.backend";
  /** Scans one executor runs at once, each a tenant with its own buffers (default: the executor's cores). */
  public static final String LANES = "spark.vyre.lanes";
  /** The resource name Spark schedules GPUs under. */
  public static final String GPU = "gpu";

  @Override
  public DriverPlugin driverPlugin() {
    return null;
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new VyreExecutorPlugin();
  }
}

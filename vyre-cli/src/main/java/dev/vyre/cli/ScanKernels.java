package dev.vyre.cli;

import dev.vyre.observe.promotion.PromotionLoop;
import dev.vyre.policy.adapt.WorkerGroupLoop;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.MegakernelBuilder;
import dev.vyre.scan.KernelResourcePool;
import dev.vyre.scan.ScanOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The kernels of a {@code vyre scan} run in its own process: one on the backend's default device,
 * or one per device of {@code --device}/{@code --devices}, each with its launch-policy loop and its
 * promotion loop, all fed by one {@link dev.vyre.scan.ScanJob}; closed together, loops first. On the reference backend
 * the devices are labels of the CPU, and its cores are split between the kernels.
 */
final class ScanKernels implements AutoCloseable {

  final List<Megakernel> kernels = new ArrayList<>();
  /** The worker-group and promotion loops of every kernel. */
  private final List<AutoCloseable> loops = new ArrayList<>();

  /**
   * Starts the kernels on {@code devices} (null: the backend's default device), in order; a kernel
   * that fails to start closes those started before it.
   */
  static ScanKernels start(Backends.Choice choice, List<Integer> devices, ScanOptions options, long expectedTasks,
      Consumer<String> log) {
    ScanKernels started = new ScanKernels();
    int count = devices == null ? 1 : devices.size();
    int workers = Math.max(1, Runtime.getRuntime().availableProcessors() / count);
    try {
      for (int k = 0; k < count; k++) {
        MegakernelBuilder builder = Megakernel.builder().backend(choice);
        if (devices != null) {
          builder.device(devices.get(k));
        }
        Megakernel kernel = ScanCommand.bootstrap(builder, options, options.ringSlots(), workers);
        started.kernels.add(kernel);
        WorkerGroupLoop policy = WorkerGroupLoop.attach(kernel, expectedTasks, log);
        if (policy != null) {
          started.loops.add(policy);
        }
        PromotionLoop promotion = PromotionLoop.attach(kernel, log);
        if (promotion != null) {
          started.loops.add(promotion);
        }
      }
    } catch (RuntimeException | Error e) {
      started.close();
      throw e;
    }
    return started;
  }

  /** One resource pool per kernel, in device order, for the scan job. */
  List<KernelResourcePool> pools() {
    return kernels.stream().map(KernelResourcePool::new).toList();
  }

  /**
   * Closes every loop, then every kernel (at once: {@link Megakernel#closeAll}), even when one of
   * them throws (the first failure is rethrown).
   */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (AutoCloseable loop : loops) {
      try {
        loop.close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : suppressing(failure, e);
      } catch (Exception e) {
        throw new IllegalStateException("the loops close without checked exceptions", e);
      }
    }
    try {
      Megakernel.closeAll(kernels);
    } catch (RuntimeException e) {
      failure = failure == null ? e : suppressing(failure, e);
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static RuntimeException suppressing(RuntimeException first, RuntimeException next) {
    first.addSuppressed(next);
    return first;
  }
}

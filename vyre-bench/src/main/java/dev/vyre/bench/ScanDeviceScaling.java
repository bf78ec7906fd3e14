package dev.vyre.bench;

import dev.vyre.cuda.CudaCopyBandwidth;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.KernelResourcePool;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code vyre bench scan --devices}: the scan of the corpus on each device alone, then on all of
 * them at once (one job, one reader, one kernel per device, as {@code vyre scan --devices} runs),
 * beside the two ceilings it can hit: the chunk reader alone with every device's buffers (the
 * host's ingest), and on CUDA the host-to-device copy bandwidth of each device alone and of all at
 * once ({@link CudaCopyBandwidth}). Every configuration must find the same matches.
 */
final class ScanDeviceScaling {

  /** Bytes each device's copy probe moves per round, and its rounds. */
  private static final long COPY_BYTES = 256L << 20;
  private static final int COPY_ROUNDS = 8;

  private ScanDeviceScaling() {}

  static void measure(ScanBench.Settings settings, MegakernelBackend backend, DfaTable table, ScanFile corpus,
      Map<String, Object> results, PrintStream out) throws InterruptedException {
    List<Integer> devices = Backends.devices(backend, settings.devices());
    String name = backend.name();
    ScanOptions options = settings.options().apply(name, 1);
    out.printf("vyre bench scan: %s devices %s, each alone, then all at once%n", name, devices);
    List<Long> matches = new ArrayList<>();
    double best = 0;
    for (int device : devices) {
      double rate = rate(settings, backend, List.of(device), table, corpus, options, matches, out);
      results.put(name + "_device_" + device + "_gb_per_s", rate);
      best = Math.max(best, rate);
    }
    String all = devices.stream().map(String::valueOf).collect(Collectors.joining(","));
    // A job over every device shares their buffers as `vyre scan --devices` does (ScanOptions.gpuBuffersPerDevice).
    ScanOptions together = settings.options().apply(name, devices.size());
    if (devices.size() > 1) {
      double rate = rate(settings, backend, devices, table, corpus, together, matches, out);
      results.put(name + "_devices_" + all + "_gb_per_s", rate);
      results.put(name + "_devices_scaling_vs_best_one", rate / best);
      out.printf("  %s on devices %s: %.3f GB/s, %.2fx the best device alone%n", name, all, rate, rate / best);
    }
    results.put(name + "_devices_matches_agree", matches.stream().distinct().count() == 1);
    int everyBuffer = together.buffers() * devices.size();
    double ingest = ScanBench.ingestGigabytesPerSecond(corpus, together.chunkBytes(), everyBuffer, together.parallelReads());
    out.printf("  ingest alone with %d buffers (chunk reader, nothing scanned): %.3f GB/s%n", everyBuffer, ingest);
    results.put(name + "_devices_" + all + "_ingest_gb_per_s", ingest);
    if (name.equals("cuda")) {
      CudaCopyBandwidth.Result copies = CudaCopyBandwidth.measure(devices, COPY_BYTES, COPY_ROUNDS);
      copies.alone().forEach((device, rate) -> {
        out.printf("  host-to-device copies, device %d alone: %.3f GB/s%n", device, rate);
        results.put("h2d_device_" + device + "_alone_gb_per_s", rate);
      });
      copies.together().forEach((device, rate) -> {
        out.printf("  host-to-device copies, device %d with the others: %.3f GB/s%n", device, rate);
        results.put("h2d_device_" + device + "_together_gb_per_s", rate);
      });
      out.printf("  host-to-device copies, devices %s at once: %.3f GB/s in all%n", all, copies.togetherTotal());
      results.put("h2d_devices_" + all + "_together_gb_per_s", copies.togetherTotal());
    } else {
      out.println("  host-to-device copies: none on the " + name + " backend, not measured");
    }
  }

  /** The median GB/s of the timed runs of one job over kernels on {@code devices}, after a warm-up run. */
  private static double rate(ScanBench.Settings settings, MegakernelBackend backend, List<Integer> devices, DfaTable table,
      ScanFile corpus, ScanOptions options, List<Long> matches, PrintStream out) {
    List<Megakernel> kernels = new ArrayList<>();
    try {
      for (int device : devices) {
        kernels.add(settings.bootstrap().apply(Megakernel.builder().backend(backend).device(device), options));
      }
      try (ScanJob job = new ScanJob(kernels.stream().map(KernelResourcePool::new).toList(), table, options)) {
        matches.add(job.run(List.of(corpus), result -> {}).matches());
        double[] rates = new double[settings.runs()];
        ScanBench.timedRuns(job, corpus, backend.name() + " on devices " + devices, rates, out);
        return rates[rates.length / 2];
      }
    } finally {
      Megakernel.closeAll(kernels);
    }
  }
}

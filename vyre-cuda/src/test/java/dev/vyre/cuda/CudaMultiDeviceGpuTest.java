package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.NaiveMatcher;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kernels on several GPUs of one process (docs/MULTI-GPU.md): each runs on the device it was
 * asked for, with its own context, and scans correctly while the others run, from a thread of its
 * own; a device the driver does not see is a typed error; the copy probe measures each device.
 * The sharded scan itself is ShardedScanJobTest, run on CUDA by scripts/gpu-check.sh.
 */
@Tag("gpu")
class CudaMultiDeviceGpuTest {

  @TempDir Path dir;

  /** The usable devices, skipping the test with the reason when there are fewer than two. */
  private static int[] twoOrMoreDevices() {
    var devices = new CudaBackend().devices();
    int[] usable = IntStream.range(0, devices.size()).filter(d -> devices.get(d).usable()).toArray();
    System.out.println("CudaMultiDeviceGpuTest: usable devices " + java.util.Arrays.toString(usable) + " of " + devices);
    Assumptions.assumeTrue(usable.length >= 2, "needs two usable CUDA devices, sees " + usable.length + ": " + devices);
    return usable;
  }

  private static Megakernel kernel(int device) {
    return Megakernel.builder().backend(new CudaBackend()).device(device).slots(4096).singlePriority(Priority.NORMAL)
        .bootstrap();
  }

  @Test
  void eachDeviceScansCorrectlyOnItsOwnThreadWhileTheOthersRun() throws Exception {
    int[] devices = twoOrMoreDevices();
    List<String> words = List.of("he", "she", "his", "hers", "vyre", "kernel");
    PatternSet patterns = PatternSet.fromArguments(words, false);
    DfaTable table = AhoCorasickCompiler.compile(patterns);
    SplittableRandom random = new SplittableRandom(26);
    StringBuilder text = new StringBuilder();
    while (text.length() < 20_000_000) {
      text.append(random.nextInt(4) == 0 ? words.get(random.nextInt(words.size())) : (char) ('a' + random.nextInt(26)));
    }
    byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
    ScanFile file = new ScanFile(Files.write(dir.resolve("text"), bytes), bytes.length);
    long expected = NaiveMatcher.findAll(patterns, bytes, 0).size();
    List<Megakernel> kernels = new ArrayList<>();
    try {
      for (int device : devices) {
        Megakernel kernel = kernel(device);
        kernels.add(kernel);
        assertEquals(device, kernel.device());
        assertTrue(kernel.describe().startsWith("cuda: device " + device + ", "), kernel.describe());
      }
      ConcurrentHashMap<Integer, Long> found = new ConcurrentHashMap<>();
      List<Thread> threads = new ArrayList<>();
      for (Megakernel kernel : kernels) {
        threads.add(Thread.ofPlatform().start(() -> {
          try (ScanJob job = new ScanJob(kernel, table, ScanOptions.forBackend("cuda").fittedTo(bytes.length))) {
            for (int round = 0; round < 3; round++) {
              found.merge(kernel.device(), job.run(List.of(file), result -> {}).matches(), Math::max);
            }
          }
        }));
      }
      for (Thread thread : threads) {
        thread.join();
      }
      for (Megakernel kernel : kernels) {
        assertEquals(expected, found.get(kernel.device()), "matches on device " + kernel.device());
        assertEquals(0, kernel.stats().faults(), "faults on device " + kernel.device());
      }
    } finally {
      Megakernel.closeAll(kernels);
    }
  }

  @Test
  void aDeviceTheDriverDoesNotSeeIsATypedError() {
    int count = CudaDriver.load().deviceCount();
    InputException error = assertThrows(InputException.class, () -> kernel(count));
    assertTrue(error.getMessage().contains("CUDA device " + count + " does not exist") && error.getMessage().contains("Fix: "),
        error.getMessage());
  }

  @Test
  void theCopyProbeMeasuresEachDeviceAloneAndAllAtOnce() throws Exception {
    int[] devices = twoOrMoreDevices();
    List<Integer> ordinals = IntStream.of(devices).boxed().toList();
    CudaCopyBandwidth.Result result = CudaCopyBandwidth.measure(ordinals, 64L << 20, 4);
    System.out.println("CudaMultiDeviceGpuTest: host-to-device GB/s alone " + result.alone() + ", together "
        + result.together() + ", together in all " + result.togetherTotal());
    assertEquals(ordinals, List.copyOf(result.alone().keySet()));
    assertEquals(ordinals, List.copyOf(result.together().keySet()));
    assertTrue(result.alone().values().stream().allMatch(rate -> rate > 0) && result.togetherTotal() > 0, result.toString());
  }
}

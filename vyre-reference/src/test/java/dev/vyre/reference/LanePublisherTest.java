package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.KernelResourcePool;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each kernel's chunks are copied and published by a thread of its own when staged on the device,
 * else at once: either way a job over two kernels whose runs repeat gives the same results each
 * time and leaves no thread behind when closed, and one of its kernels shut down in the middle of a
 * run fails that run with a typed error instead of hanging it. The two kernels are on two devices
 * ({@link TestBackends#shardDevices}): a GPU runs one persistent kernel at a time, so on CUDA the
 * test needs two GPUs.
 */
class LanePublisherTest {

  @TempDir Path dir;
  private int[] devices;

  @BeforeEach
  void twoDevices() {
    devices = TestBackends.shardDevices();
    Assumptions.assumeTrue(devices.length >= 2, "LanePublisherTest needs two devices of backend "
        + TestBackends.selected().name() + "; it sees " + devices.length);
  }

  private List<ScanFile> tree(int files, int bytes) throws Exception {
    List<ScanFile> listed = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      Path path = Files.writeString(dir.resolve("f" + i), ("needle " + i + " hay\n").repeat(bytes / 16));
      listed.add(new ScanFile(path, Files.size(path)));
    }
    return listed;
  }

  @Test
  void twoKernelsRunAfterRunGiveTheSameMatchesAndLeaveNoThreads() throws Exception {
    List<ScanFile> files = tree(60, 20_000);
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of("needle", "hay"), false));
    List<Megakernel> kernels = List.of(TestBackends.scanKernel(devices[0]), TestBackends.scanKernel(devices[1]));
    try {
      for (boolean staged : new boolean[] {false, true}) {
        try (ScanJob job = new ScanJob(kernels.stream().map(KernelResourcePool::new).toList(), table,
            new ScanOptions(4096, 1024, 3, false).withStageOnDevice(staged))) {
          for (int round = 0; round < 3; round++) {
            List<FileResult> results = new ArrayList<>();
            job.run(files, results::add);
            for (int i = 0; i < files.size(); i++) {
              assertEquals(2L * (20_000 / 16), results.get(i).matches(), "staged " + staged + ", round " + round + ", file " + i);
            }
          }
        }
        assertTrue(noScanThreads(), "staged " + staged + ": no thread outlives its job");
      }
    } finally {
      Megakernel.closeAll(kernels);
    }
  }

  @Test
  void aKernelShutDownMidRunFailsTheRunAndClosingLeavesNoThreads() throws Exception {
    List<ScanFile> files = tree(400, 40_000);
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of("needle"), false));
    for (boolean staged : new boolean[] {false, true}) {
      Megakernel first = TestBackends.scanKernel(devices[0]);
      Megakernel second = TestBackends.scanKernel(devices[1]);
      try {
        try (ScanJob job = new ScanJob(List.of(new KernelResourcePool(first), new KernelResourcePool(second)), table,
            new ScanOptions(8192, 1024, 4, true).withStageOnDevice(staged))) {
          CompletableFuture<?>[] closing = new CompletableFuture<?>[1];
          RuntimeException failed = assertThrows(RuntimeException.class, () -> job.run(files, result -> {
            if (closing[0] == null) {
              closing[0] = CompletableFuture.runAsync(second::close);
            }
          }), "staged " + staged);
          assertTrue(failed instanceof VyreException, "staged " + staged + ", a typed error: " + failed);
          closing[0].join();
        }
        assertTrue(noScanThreads(), "staged " + staged + ": no thread outlives its job");
      } finally {
        Megakernel.closeAll(List.of(first, second));
      }
    }
  }

  private static boolean noScanThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .noneMatch(t -> t.isAlive() && (t.getName().startsWith("vyre-scan-lane") || t.getName().startsWith("vyre-scan-pack")));
  }
}

package dev.vyre.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An executor's kernel serves task after task, several at once, with the jobs finished tasks left:
 * every scan answers as the first did, whatever ran on the job before (other patterns, counts or
 * matches, a cancelled scan), and closing leaves no scan thread.
 */
class ExecutorKernelTest {

  @TempDir Path dir;

  @Test
  void tasksTakingTheJobsOthersLeftAnswerAlikeAndClosingLeavesNoThreads() throws Exception {
    List<ScanFile> files = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      Path path = Files.writeString(dir.resolve("f" + i), ("needle " + i + " hay stack\n").repeat(2_000 + 500 * i));
      files.add(new ScanFile(path, Files.size(path)));
    }
    PatternSet needle = PatternSet.fromArguments(List.of("needle"), false);
    PatternSet hayStack = PatternSet.fromArguments(List.of("hay", "stack"), false);
    ExecutorKernel kernel = ExecutorKernel.start(Megakernel.builder(), Backends.select("reference"), 2);
    try {
      List<Long> needles = counts(kernel, files, needle, false, false);
      List<Long> hays = counts(kernel, files, hayStack, true, false);
      for (int i = 0; i < files.size(); i++) {
        long lines = 2_000 + 500 * i;
        assertEquals(lines, needles.get(i), "file " + i);
        assertEquals(2 * lines, hays.get(i), "file " + i);
      }
      // A cancelled scan leaves its job to the next task, which must still see every match.
      counts(kernel, files, needle, false, true);
      ExecutorService tasks = Executors.newFixedThreadPool(4);
      try {
        List<Future<List<Long>>> runs = new ArrayList<>();
        for (int run = 0; run < 16; run++) {
          boolean hay = run % 2 == 1;
          boolean keepHits = run % 3 == 0;
          runs.add(tasks.submit(() -> counts(kernel, files, hay ? hayStack : needle, keepHits, false)));
        }
        for (int run = 0; run < runs.size(); run++) {
          assertEquals(run % 2 == 1 ? hays : needles, runs.get(run).get(), "run " + run);
        }
      } finally {
        tasks.shutdown();
      }
    } finally {
      kernel.close();
    }
    assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.isAlive()
        && (t.getName().startsWith("vyre-scan-lane") || t.getName().startsWith("vyre-scan-pack"))), "no scan thread outlives the kernel");
  }

  /** Each file's match count, in order. */
  private static List<Long> counts(ExecutorKernel kernel, List<ScanFile> files, PatternSet patterns, boolean keepHits,
      boolean cancel) throws InterruptedException {
    List<Long> counts = new ArrayList<>();
    kernel.scan(files, patterns, keepHits, ScanSink.collecting(keepHits, (FileResult result) -> counts.add(result.matches())),
        () -> cancel);
    return counts;
  }
}

package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A crash mid-write leaves an entry that later runs detect, recompile, say so, and replace. */
class PipelineCacheRecoveryTest {

  private static final byte[] CUBIN = {0x7f, 'E', 'L', 'F', 1, 2, 3, 4};

  private static Supplier<byte[]> counting(AtomicInteger compiles) {
    return () -> {
      compiles.incrementAndGet();
      return CUBIN.clone();
    };
  }

  @Test
  void aMissCompilesOnceThenHits(@TempDir Path dir) {
    PipelineCache cache = new PipelineCache(dir);
    AtomicInteger compiles = new AtomicInteger();
    assertEquals(PipelineCache.Outcome.MISS, cache.getOrCompile("k", counting(compiles)).outcome());
    PipelineCache.Entry hit = cache.getOrCompile("k", counting(compiles));
    assertEquals(PipelineCache.Outcome.HIT, hit.outcome());
    assertArrayEquals(CUBIN, hit.cubin());
    assertEquals(1, compiles.get());
  }

  @Test
  void truncatedAndDamagedEntriesAreRecompiledReportedAndReplaced(@TempDir Path dir) throws Exception {
    PipelineCache cache = new PipelineCache(dir);
    AtomicInteger compiles = new AtomicInteger();
    Path file = cache.getOrCompile("k", counting(compiles)).file();
    byte[] good = Files.readAllBytes(file);
    byte[][] damaged = {
        new byte[0], // the rename landed but the data did not (power loss without fsync)
        java.util.Arrays.copyOf(good, 8), // the magic only
        java.util.Arrays.copyOf(good, good.length - 1), // truncated payload
        "not a cache entry".getBytes(StandardCharsets.US_ASCII),
    };
    for (byte[] bad : damaged) {
      Files.write(file, bad);
      // Reported as the entry's outcome, and as a warning through System.Logger (not asserted: where that goes is
      // the application's choice, JUL's console here).
      PipelineCache.Entry rebuilt = cache.getOrCompile("k", counting(compiles));
      assertEquals(PipelineCache.Outcome.REBUILT_CORRUPT, rebuilt.outcome(), "a damaged entry of " + bad.length + " bytes");
      assertArrayEquals(CUBIN, rebuilt.cubin());
      assertArrayEquals(good, Files.readAllBytes(file), "the entry is rewritten whole");
      assertEquals(PipelineCache.Outcome.HIT, cache.getOrCompile("k", counting(compiles)).outcome(), "and the next run hits it");
    }
    assertEquals(1 + damaged.length, compiles.get());
  }

  @Test
  void aFailedCompileLeavesNoEntry(@TempDir Path dir) throws Exception {
    PipelineCache cache = new PipelineCache(dir);
    RuntimeException compileError = new RuntimeException("nvrtcCompileProgram(megakernel.cu) failed");
    assertThrows(RuntimeException.class, () -> cache.getOrCompile("k", () -> {
      throw compileError;
    }));
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void aFailedWriteLeavesNoTempFileBehind(@TempDir Path dir) throws Exception {
    // The target is a non-empty directory: the move fails after the temp file was written.
    Path file = dir.resolve("k.cubin");
    Files.createDirectories(file.resolve("child"));
    PipelineCache.write(file, CUBIN);
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(1, files.count(), "only the directory that blocked the move");
    }
  }
}

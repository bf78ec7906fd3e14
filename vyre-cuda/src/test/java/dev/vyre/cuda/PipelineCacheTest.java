package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entries round-trip, keys cover source/options/device, and a damaged entry is refused. */
class PipelineCacheTest {

  @Test
  void entriesRoundTripAndCorruptionIsDetected(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("k.cubin");
    byte[] payload = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    PipelineCache.write(file, payload);
    assertArrayEquals(payload, PipelineCache.read(file));
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 1] ^= 1;
    Files.write(file, bytes);
    assertNull(PipelineCache.read(file), "a flipped payload bit is detected");
    Files.write(file, new byte[] {1, 2, 3});
    assertNull(PipelineCache.read(file), "a truncated entry is detected");
  }

  @Test
  void keyDependsOnSourceOptionsAndDevice() {
    String base = PipelineCache.key("src", List.of("--gpu-architecture=sm_90"), "H100|sm_90");
    assertNotEquals(base, PipelineCache.key("src2", List.of("--gpu-architecture=sm_90"), "H100|sm_90"));
    assertNotEquals(base, PipelineCache.key("src", List.of("--gpu-architecture=sm_80"), "H100|sm_90"));
    assertNotEquals(base, PipelineCache.key("src", List.of("--gpu-architecture=sm_90"), "H200|sm_90"));
  }

  @Test
  void limitsComeFromTheEnvironmentAndABadValueKeepsTheDefault() {
    assertEquals(256, PipelineCache.parseLimit("VYRE_PIPELINE_CACHE_ENTRIES", null, 256));
    assertEquals(256, PipelineCache.parseLimit("VYRE_PIPELINE_CACHE_ENTRIES", " ", 256));
    assertEquals(12, PipelineCache.parseLimit("VYRE_PIPELINE_CACHE_ENTRIES", " 12 ", 256));
    for (String bad : new String[] {"0", "-3", "lots", "1e9", "99999999999999999999"}) {
      assertEquals(256, PipelineCache.parseLimit("VYRE_PIPELINE_CACHE_ENTRIES", bad, 256), bad);
    }
  }

  @Test
  void aNewEntryEvictsTheLeastRecentlyUsedBeyondTheEntryLimit(@TempDir Path dir) throws Exception {
    PipelineCache cache = new PipelineCache(dir, 3, Long.MAX_VALUE);
    for (int i = 1; i <= 3; i++) {
      compile(cache, "k" + i, 10);
      // Distinct, increasing times: file systems may round modification times to a second.
      Files.setLastModifiedTime(dir.resolve("k" + i + ".cubin"), FileTime.fromMillis(1_000_000L * i));
    }
    assertEquals(PipelineCache.Outcome.HIT, compile(cache, "k1", 10), "a hit marks k1 used now");
    compile(cache, "k4", 10);
    assertEquals(Set.of("k1", "k3", "k4"), entries(dir), "k2 was used least recently");
  }

  @Test
  void aNewEntryEvictsTheOldestBeyondTheByteLimitButNeverItself(@TempDir Path dir) throws Exception {
    long entryBytes = 8 + 32 + 100;  // magic, SHA-256, payload
    PipelineCache cache = new PipelineCache(dir, 256, 2 * entryBytes);
    compile(cache, "a", 100);
    Files.setLastModifiedTime(dir.resolve("a.cubin"), FileTime.fromMillis(1_000_000L));
    compile(cache, "b", 100);
    Files.setLastModifiedTime(dir.resolve("b.cubin"), FileTime.fromMillis(2_000_000L));
    compile(cache, "c", 100);
    assertEquals(Set.of("b", "c"), entries(dir));
    compile(cache, "huge", 1000);
    assertEquals(Set.of("huge"), entries(dir), "an entry larger than the limit alone still stays: it was just compiled");
  }

  private static PipelineCache.Outcome compile(PipelineCache cache, String key, int bytes) {
    return cache.getOrCompile(key, () -> new byte[bytes]).outcome();
  }

  private static Set<String> entries(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".cubin"))
          .map(n -> n.substring(0, n.length() - ".cubin".length())).collect(Collectors.toSet());
    }
  }
}

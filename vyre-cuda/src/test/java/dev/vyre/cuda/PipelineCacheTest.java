package dev.vyre.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
}

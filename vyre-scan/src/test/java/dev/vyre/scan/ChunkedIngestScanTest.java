package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;
import dev.vyre.io.IoBackends;
import dev.vyre.io.ReadCompletion;
import dev.vyre.runtime.dfa.DfaStep;
import dev.vyre.runtime.dfa.Hit;
import dev.vyre.runtime.dfa.HitBufferLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ingest path end to end: planned chunks read by the io backends, DFA_STEP on each buffer. */
class ChunkedIngestScanTest {

  @TempDir Path dir;

  /** The ingest path end to end: planned chunks, several reads in flight, DFA_STEP on each buffer. */
  @Test
  void chunkedReadsScannedInAnyCompletionOrderFindEveryMatchOnce() throws IOException {
    SplittableRandom random = new SplittableRandom(3);
    byte[] content = new byte[300_000];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) "abcd \n".charAt(random.nextInt(6));
    }
    Path path = Files.write(dir.resolve("input"), content);
    PatternSet patterns = PatternSet.fromArguments(List.of("abca", "dd", "a b", "cdcdc", "b\na"), false);
    DfaTable table = AhoCorasickCompiler.compile(patterns);
    ChunkPlanner plan = ChunkPlanner.of(content.length, 16_384, patterns.maxLength());
    List<Hit> hits = new ArrayList<>();
    try (Arena arena = Arena.ofShared();
        ChunkReader reader = IoBackends.open(BufferPool.of(BufferPool.allocate(arena, 3, plan.maxReadBytes())))) {
      MemorySegment dfa = arena.allocate(table.byteSize(), 4096);
      table.copyTo(dfa);
      long capacity = content.length;
      MemorySegment hitBuffer = arena.allocate(HitBufferLayout.byteSize(capacity), 4096);
      HitBufferLayout.init(hitBuffer, capacity);
      int file = reader.openFile(path);
      long next = 0;
      for (int buffer = 0; buffer < 3 && next < plan.chunkCount(); buffer++, next++) {
        ChunkPlanner.Chunk chunk = plan.chunk(next);
        reader.submit(file, chunk.readOffset(), (int) chunk.readLength(), buffer, next);
      }
      while (reader.inFlight() > 0) {
        ReadCompletion done = reader.await();
        assertFalse(done.failed());
        ChunkPlanner.Chunk chunk = plan.chunk(done.userData());
        assertEquals(chunk.readLength(), done.bytesRead());
        int state = DfaStep.run(reader.pool().buffer(done.bufferIndex()), 0, done.bytesRead(), dfa,
            table.startState(), hitBuffer, 5, chunk.readOffset(), chunk.reportFrom());
        assertTrue(state >= 0);
        if (next < plan.chunkCount()) {
          ChunkPlanner.Chunk following = plan.chunk(next);
          reader.submit(file, following.readOffset(), (int) following.readLength(), done.bufferIndex(), next++);
        }
      }
      assertFalse(HitBufferLayout.overflowed(hitBuffer));
      hits.addAll(HitBufferLayout.readAll(hitBuffer));
    }
    Collections.sort(hits);
    List<Hit> expected = NaiveMatcher.findAll(patterns, content, 5);
    assertTrue(expected.size() > 1000, "the corpus has plenty of matches: " + expected.size());
    assertEquals(expected, hits);
  }
}

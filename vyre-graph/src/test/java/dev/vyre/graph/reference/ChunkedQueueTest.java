package dev.vyre.graph.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ChunkedQueueTest {

  @Test
  void chunksAppendedFromSeveralThreadsAreContiguousAndEveryEdgeFindsItsChunk() throws InterruptedException {
    int threads = 4;
    int perThread = 3 * ChunkedQueue.CHUNK + 17;
    ChunkedQueue queue = new ChunkedQueue(threads * perThread, threads);
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      started.add(Thread.ofPlatform().start(() -> {
        WorkerContext me = new WorkerContext(id);
        for (int i = 0; i < perThread; i++) {
          int v = id * perThread + i;
          // Degree v % 50: some vertices heavy, some with no edges at all.
          me.add(queue, v, v % 50);
        }
        me.flush(queue);
      }));
    }
    for (Thread thread : started) {
      thread.join();
    }
    int size = threads * perThread;
    assertEquals(size, queue.size());
    int[] sorted = Arrays.copyOf(queue.items, size);
    Arrays.sort(sorted);
    assertEquals(IntStream.range(0, size).boxed().toList(), Arrays.stream(sorted).boxed().toList());
    assertEquals(IntStream.range(0, size).mapToLong(v -> v % 50).sum(), queue.edges());
    for (boolean heavyOnly : new boolean[] {false, true}) {
      long[] first = new long[size + 1];
      for (int i = 0; i < size; i++) {
        long degree = queue.items[i] % 50;
        first[i + 1] = first[i] + (!heavyOnly || degree > Traversal.HEAVY_DEGREE ? degree : 0);
      }
      long total = queue.prepareSplit(heavyOnly);
      assertEquals(first[size], total);
      for (long edge = 0; edge < total; edge += 97) {
        int chunk = queue.chunkOf(edge);
        long chunkFirst = queue.firstEdge(chunk);
        int position = queue.position(chunk);
        assertEquals(first[position], chunkFirst, "chunk " + chunk + "'s first edge");
        // The edge's vertex lies within the chunk, which holds at most CHUNK vertices.
        int at = position;
        while (first[at + 1] <= edge) {
          at++;
        }
        assertTrue(at - position < ChunkedQueue.CHUNK, "edge " + edge + " is not in chunk " + chunk);
      }
    }
    queue.reset();
    assertEquals(0, queue.size());
    assertEquals(0, queue.edges());
  }
}

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
  void theSplitOrderListsEachWorkersVerticesInWorkerOrderAndEveryEdgeFindsItsChunk() throws InterruptedException {
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
      long total = queue.prepareSplit(heavyOnly);
      // Walked in the split order, the chunks list worker 0's vertices in the order it added them,
      // then worker 1's, and so on: here, every vertex in id order.
      int chunks = 4 * threads;
      long expectedFirst = 0;
      int next = 0;
      for (int place = 0; place < chunks; place++) {
        assertEquals(expectedFirst, queue.firstEdge(place), "the first edge of the chunk at " + place);
        for (int i = queue.position(place), end = i + queue.length(place); i < end; i++) {
          assertEquals(next++, queue.items[i]);
          long degree = queue.items[i] % 50;
          expectedFirst += !heavyOnly || degree > Traversal.HEAVY_DEGREE ? degree : 0;
        }
      }
      assertEquals(size, next);
      assertEquals(expectedFirst, total);
      assertEquals(total, queue.firstEdge(chunks));
      for (long edge = 0; edge < total; edge += 97) {
        int place = queue.chunkOf(edge);
        assertTrue(queue.firstEdge(place) <= edge && edge < queue.firstEdge(place + 1),
            "edge " + edge + " is not in the chunk at " + place);
      }
    }
    queue.reset();
    assertEquals(0, queue.size());
    assertEquals(0, queue.edges());
  }
}

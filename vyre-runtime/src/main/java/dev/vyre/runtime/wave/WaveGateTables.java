package dev.vyre.runtime.wave;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.WaveGateLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A kernel's wave gate tables (one service per kernel): DEVICE resources reused once the run that
 * held one has finished, since a kernel never frees a resource and the gate word has room for 4,096
 * handles.
 */
final class WaveGateTables {

  /** The smallest table allocated, in words, so that small DAGs of different sizes share tables. */
  private static final long MIN_WORDS = 64;

  private record Table(int handle, long words) {}

  private final List<Table> free = new ArrayList<>();
  private final Map<Integer, Table> taken = new HashMap<>();

  /**
   * A table holding {@code counts} (word 0 zero, word {@code k + 1} layer {@code k}'s task count),
   * written before this returns, so that no task published afterwards can read an older count.
   */
  synchronized int acquire(Megakernel kernel, int[] counts) {
    long words = WaveGateLayout.tableWords(counts.length);
    Table table = null;
    for (int i = 0; i < free.size(); i++) {
      if (free.get(i).words() >= words && (table == null || free.get(i).words() < table.words())) {
        table = free.get(i);
      }
    }
    if (table != null) {
      free.remove(table);
    } else {
      long capacity = Math.max(MIN_WORDS, Long.highestOneBit(words - 1) << 1);
      int handle = kernel.allocateResource(capacity * 4, ResourcePlacement.DEVICE);
      WaveGateLayout.gate(handle, 0);  // refuses a handle the gate word cannot hold
      table = new Table(handle, capacity);
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment content = arena.allocate(words * 4, 4);
      for (int layer = 0; layer < counts.length; layer++) {
        Words.set(content, layer + 1, counts[layer]);
      }
      kernel.writeResource(table.handle(), 0, content);
    }
    taken.put(table.handle(), table);
    return table.handle();
  }

  /** The counters of {@code layers} layers of table {@code handle}, as the tasks left them. */
  int[] read(Megakernel kernel, int handle, int layers) {
    int[] counters = new int[layers];
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment content = arena.allocate(WaveGateLayout.tableWords(layers) * 4, 4);
      kernel.readResource(handle, 0, content);
      for (int layer = 0; layer < layers; layer++) {
        counters[layer] = Words.get(content, layer + 1);
      }
    }
    return counters;
  }

  /** Gives table {@code handle} back once no task of its run can read it any more. */
  synchronized void release(int handle) {
    Table table = taken.remove(handle);
    if (table != null) {
      free.add(table);
    }
  }
}

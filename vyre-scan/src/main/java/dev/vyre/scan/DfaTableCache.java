package dev.vyre.scan;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The DFA tables of the pattern sets compiled most recently, for a process that scans with the same
 * patterns again and again ({@code vyre serve}): compiling 10,000 literals takes tens to hundreds of
 * milliseconds, looking one up microseconds. Least recently used first out. Thread-safe.
 */
public final class DfaTableCache {

  private record Key(List<ByteBuffer> patterns, boolean caseInsensitive) {}

  private final int capacity;
  private final Map<Key, DfaTable> tables;
  private long hits;
  private long misses;

  public DfaTableCache(int capacity) {
    this.capacity = capacity;
    this.tables = new LinkedHashMap<>(16, 0.75f, true);
  }

  /** The table of {@code patterns}: a cached one, or one compiled now and kept. */
  public DfaTable compile(PatternSet patterns) {
    List<ByteBuffer> bytes = new ArrayList<>(patterns.size());
    for (int id = 0; id < patterns.size(); id++) {
      bytes.add(ByteBuffer.wrap(patterns.pattern(id)));
    }
    Key key = new Key(List.copyOf(bytes), patterns.caseInsensitive());
    synchronized (this) {
      DfaTable table = tables.get(key);
      if (table != null) {
        hits++;
        return table;
      }
      misses++;
    }
    // Compiled outside the lock: two clients with new patterns compile at once.
    DfaTable table = AhoCorasickCompiler.compile(patterns);
    synchronized (this) {
      tables.put(key, table);
      if (tables.size() > capacity) {
        tables.remove(tables.keySet().iterator().next());
      }
    }
    return table;
  }

  /** "N tables, H hits, M misses", for {@code vyre serve --status}. */
  public synchronized String describe() {
    return tables.size() + " of " + capacity + " tables kept, " + hits + " hits, " + misses + " compiled";
  }
}

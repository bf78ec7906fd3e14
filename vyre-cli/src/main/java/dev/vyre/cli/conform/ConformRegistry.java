package dev.vyre.cli.conform;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The {@code "fn"} name → function table of {@code vyre conform}. */
public final class ConformRegistry {

  /** An empty table; {@link #loadAll()} gives one with every module's functions. */
  public ConformRegistry() {}

  private final Map<String, ConformFunction> functions = new TreeMap<>();

  /** Registers one function; a name may be registered once. */
  public void add(String fn, ConformFunction function) {
    if (functions.putIfAbsent(fn, function) != null) {
      throw new IllegalStateException("conform function " + fn + " is registered twice");
    }
  }

  public ConformFunction get(String fn) {
    return functions.get(fn);
  }

  public Iterable<String> names() {
    return functions.keySet();
  }

  /** Every module on the class path. */
  public static ConformRegistry loadAll() {
    ConformRegistry registry = new ConformRegistry();
    for (ConformModule module : ServiceLoader.load(ConformModule.class)) {
      module.register(registry);
    }
    return registry;
  }
}

package dev.vyre.runtime;

import java.nio.file.Path;

/** Where vyre keeps what it learns on a machine between runs: compiled kernels, measured figures. */
public final class CacheDirectory {

  private CacheDirectory() {}

  /**
   * {@code name} in the explicit directory when one is set ({@link #explicit()}), else in
   * {@link #userBase()}.
   */
  public static Path resolve(String name) {
    Path explicit = explicit();
    return (explicit != null ? explicit : userBase()).resolve(name);
  }

  /**
   * The {@code vyre.cache.dir} property, else {@code $VYRE_CACHE_DIR}; null when neither is set. It
   * holds everything itself, so a test or a CI run can point all of it at one scratch folder.
   */
  public static Path explicit() {
    String explicit = System.getProperty("vyre.cache.dir", System.getenv("VYRE_CACHE_DIR"));
    return explicit != null && !explicit.isBlank() ? Path.of(explicit) : null;
  }

  /** {@code $XDG_CACHE_HOME/vyre}, else {@code ~/.cache/vyre}. */
  public static Path userBase() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("vyre");
  }
}

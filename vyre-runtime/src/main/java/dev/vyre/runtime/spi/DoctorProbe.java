package dev.vyre.runtime.spi;

/**
 * One line of {@code vyre doctor} contributed by a module (io_uring, say), found through
 * {@link java.util.ServiceLoader}, so the doctor needs no compile-time knowledge of the module.
 */
public interface DoctorProbe {

  /** What this module can do on this machine, or why not, as one line; null for none. */
  String line();
}

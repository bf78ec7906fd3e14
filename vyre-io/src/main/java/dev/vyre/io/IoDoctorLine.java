package dev.vyre.io;

import dev.vyre.runtime.spi.DoctorProbe;

/**
 * The {@code vyre doctor} line for file ingest: whether io_uring works here or why {@code vyre
 * scan} reads through FileChannel instead.
 */
public final class IoDoctorLine implements DoctorProbe {

  /** The service instance; {@link java.util.ServiceLoader} calls this. */
  public IoDoctorLine() {}

  @Override
  public String line() {
    return String.format("%-10s %s", "io", IoBackends.availability().detail());
  }
}

package dev.vyre.io;

import java.util.function.Supplier;

/**
 * The {@code vyre doctor} line for file ingest: whether io_uring works here or why {@code vyre
 * scan} reads through FileChannel instead. Registered as a {@code Supplier<String>} service.
 */
public final class IoDoctorLine implements Supplier<String> {

  @Override
  public String get() {
    return String.format("%-10s %s", "io", IoBackends.availability().detail());
  }
}

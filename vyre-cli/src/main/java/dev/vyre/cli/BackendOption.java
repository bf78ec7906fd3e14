package dev.vyre.cli;

import picocli.CommandLine.Option;

/** The shared {@code --backend} and {@code --verbose} options. */
final class BackendOption {

  @Option(names = "--backend", defaultValue = "auto", description = "auto | reference | cuda (default: ${DEFAULT-VALUE}).")
  String backend;

  @Option(names = {"-v", "--verbose"}, description = "Say which backend was chosen and why.")
  boolean verbose;
}

package dev.vyre.graph.reference;

import dev.vyre.graph.frontier.FrontierBackend;
import dev.vyre.graph.frontier.FrontierEngine;
import dev.vyre.runtime.spi.Availability;

/** The {@code reference} frontier backend: Java worker threads, usable everywhere, below {@code cuda} for {@code auto}. */
public final class ReferenceFrontierBackend implements FrontierBackend {

  @Override
  public String name() {
    return ReferenceFrontierEngine.NAME;
  }

  @Override
  public int precedence() {
    return 0;
  }

  @Override
  public Availability availability() {
    return Availability.usable(Runtime.getRuntime().availableProcessors() + " worker threads");
  }

  @Override
  public FrontierEngine open() {
    return new ReferenceFrontierEngine();
  }
}

package dev.vyre.cuda.internal;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The release steps of what a session allocated, run newest first. Every step runs even when an
 * earlier one throws, so one failed free does not leak everything allocated before it; the first
 * failure is thrown with the others suppressed. Not thread-safe: its owner calls it under a lock
 * or from a constructor.
 */
public final class Releases {

  private final Deque<Runnable> steps = new ArrayDeque<>();

  /** No steps yet. */
  public Releases() {}

  /** Registers the release of something just allocated. */
  public void add(Runnable step) {
    steps.push(step);
  }

  /** Runs and forgets every step, newest first; throws the first failure, the later ones suppressed. */
  public void releaseAll() {
    RuntimeException first = null;
    while (!steps.isEmpty()) {
      try {
        steps.pop().run();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /** After {@code cause} (a failed constructor): runs every step, adding their failures to {@code cause}. */
  public void releaseAfter(Throwable cause) {
    try {
      releaseAll();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  /** Forgets every step without running it (the driver destroyed what they would free). */
  public void forget() {
    steps.clear();
  }
}

package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import dev.vyre.observe.telemetry.TelemetrySample;
import dev.vyre.observe.telemetry.TelemetrySampler;
import dev.vyre.runtime.Megakernel;
import java.io.PrintStream;
import java.time.Duration;

/**
 * The live one-line dashboard of {@code vyre run --watch}: samples the running kernel's telemetry
 * every interval and rewrites one line when stderr is a terminal (or prints one line per sample when the
 * output is not a terminal). Closing it takes and prints a final sample. Inactive when no interval
 * is given, so the caller needs no branch.
 */
final class LiveDashboard implements AutoCloseable {

  private static final String CLEAR_TO_END_OF_LINE = "\u001b[K";

  private final TelemetrySampler sampler;
  private final PrintStream out;
  private final boolean rewriteLine;
  private boolean closed;

  private LiveDashboard(TelemetrySampler sampler, PrintStream out, boolean rewriteLine) {
    this.sampler = sampler;
    this.out = out;
    this.rewriteLine = rewriteLine;
  }

  /** Starts watching {@code kernel} every {@code intervalMillis}, or returns an inactive dashboard when it is null. */
  static LiveDashboard start(Megakernel kernel, Long intervalMillis, PrintStream out) {
    return start(kernel, intervalMillis, out, Terminal.isTerminal(Terminal.STDERR));
  }

  static LiveDashboard start(Megakernel kernel, Long intervalMillis, PrintStream out, boolean rewriteLine) {
    if (intervalMillis == null) {
      return new LiveDashboard(null, out, false);
    }
    if (intervalMillis < 1) {
      throw InputException.of("--watch", "the interval " + intervalMillis + " ms is below 1 ms",
          "pass --watch for 250 ms or --watch=MS with MS of at least 1");
    }
    LiveDashboard dashboard = new LiveDashboard(TelemetrySampler.of(kernel), out, rewriteLine);
    dashboard.sampler.addListener(dashboard::print);
    dashboard.sampler.start(Duration.ofMillis(intervalMillis));
    return dashboard;
  }

  private void print(TelemetrySample sample) {
    String line = "vyre " + sampler.name() + " " + sample.dashboardLine();
    synchronized (out) {
      if (rewriteLine) {
        out.print("\r" + line + CLEAR_TO_END_OF_LINE);
      } else {
        out.println(line);
      }
      out.flush();
    }
  }

  /** Stops sampling and prints a final sample; idempotent. */
  @Override
  public void close() {
    if (sampler == null || closed) {
      return;
    }
    closed = true;
    sampler.close();
    sampler.sample();
    if (rewriteLine) {
      out.println();
    }
  }
}

package dev.vyre.policy.adapt;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.policy.MegakernelDispatchTopology;
import dev.vyre.runtime.Megakernel;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The launch policy in a running kernel's loop: samples its queue at a cadence, asks
 * {@link WorkerGroupPolicy} how many worker groups the queue needs, and applies the answer to the
 * live kernel ({@link Megakernel#setActiveWorkerGroups}). Groups are woken at once and shed only
 * when every sample of a whole window asked for fewer, and then to the most that window asked for:
 * a decision cannot flip back more than once per window. Each change is a JFR event
 * ({@code dev.vyre.WorkerGroupsChanged}) and goes to the listener (a {@code --verbose} line).
 *
 * <p>{@link #sizeAtBoot} sizes a kernel before its first task from the job's expected queue.
 * Run the loop on its own daemon thread with {@link #start}, or step it by hand ({@link #step}).
 */
public final class WorkerGroupLoop implements AutoCloseable {

  /**
   * @param cadence time between samples
   * @param shedWindow samples in a row that must ask for fewer groups before any are shed
   */
  public record Options(Duration cadence, int shedWindow) {

    public Options {
      if (cadence.isNegative() || cadence.isZero() || shedWindow < 1) {
        throw InputException.of("worker-group loop", "cadence " + cadence + " and shed window " + shedWindow,
            "give a positive cadence and a shed window of at least one sample");
      }
    }

    /** A sample every 2 ms; groups shed after 50 samples (100 ms) that all asked for fewer. */
    public static Options defaults() {
      return new Options(Duration.ofMillis(2), 50);
    }
  }

  /** One applied change: from and to active groups, and the decision that made it. */
  public record Change(int from, int to, WorkerGroupPolicy.Decision decision) {

    /** One line for {@code --verbose}. */
    public String line() {
      return (to > from ? "woke" : "shed") + " worker groups " + from + " -> " + to + ": " + decision.evidence();
    }
  }

  private final Megakernel kernel;
  private final QueueTelemetry telemetry;
  private final WorkerGroupPolicy policy;
  private final Options options;
  private final Consumer<Change> listener;
  private MegakernelDispatchTopology previousTopology;
  private long previousContinuations = -1;
  private int lowSamples;
  private int windowMost;
  private volatile long samples;
  private volatile long changes;
  private LoopThread thread;

  public WorkerGroupLoop(Megakernel kernel, QueueTelemetry telemetry, WorkerGroupPolicy policy, Options options, Consumer<Change> listener) {
    this.kernel = kernel;
    this.telemetry = telemetry;
    this.policy = policy;
    this.options = options;
    this.listener = listener;
  }

  /**
   * Sets a new kernel's active groups from the queue its job expects (tasks in flight at once),
   * before the job publishes anything, and returns the decision.
   */
  public static WorkerGroupPolicy.Decision sizeAtBoot(Megakernel kernel, long expectedQueue) {
    WorkerGroupPolicy.Decision decision = bootDecision(kernel, expectedQueue);
    kernel.setActiveWorkerGroups(decision.activeGroups());
    return decision;
  }

  /** What {@link #sizeAtBoot} decides for {@code kernel} and {@code expectedQueue}, without applying it. */
  public static WorkerGroupPolicy.Decision bootDecision(Megakernel kernel, long expectedQueue) {
    return WorkerGroupPolicy.standard().decide(kernel.workerGroups(), kernel.lanesPerWorkerGroup(), expectedQueue, 0, null);
  }

  /**
   * What every job does with its kernel: sizes it at boot for {@code expectedQueue} tasks in flight
   * and starts its loop with the default options, each decision a line to {@code log}. With
   * {@code -Dvyre.policy.loop=off} no loop starts (null: the kernel keeps its boot size), for
   * measuring what the loop costs.
   */
  public static WorkerGroupLoop attach(Megakernel kernel, long expectedQueue, Consumer<String> log) {
    return attach(kernel, expectedQueue, log, change -> log.accept("policy: " + change.line()));
  }

  /** {@link #attach(Megakernel, long, Consumer)} with the changes to a listener of their own. */
  public static WorkerGroupLoop attach(Megakernel kernel, long expectedQueue, Consumer<String> log, Consumer<Change> changes) {
    log.accept("policy: at boot, " + sizeAtBoot(kernel, expectedQueue).evidence());
    if (LoopThread.switchedOff()) {
      log.accept("policy: no loop (vyre.policy.loop=off)");
      return null;
    }
    return start(kernel, Options.defaults(), changes);
  }

  /** A loop over {@code kernel}'s own telemetry with the standard policy, running on a daemon thread. */
  public static WorkerGroupLoop start(Megakernel kernel, Options options, Consumer<Change> listener) {
    WorkerGroupLoop loop = new WorkerGroupLoop(kernel, QueueTelemetry.of(kernel), WorkerGroupPolicy.standard(), options, listener);
    loop.thread = LoopThread.start("vyre-policy-" + kernel.backendName(), options.cadence(), loop::step);
    return loop;
  }

  /** Takes one sample and applies what it decides; returns the change, or null when nothing changed. */
  public synchronized Change step() {
    QueueSample sample = telemetry.sample();
    long requeues = previousContinuations < 0 ? 0 : (sample.continuations() - previousContinuations) & 0xFFFF_FFFFL;
    previousContinuations = sample.continuations();
    WorkerGroupPolicy.Decision decision =
        policy.decide(kernel.workerGroups(), kernel.lanesPerWorkerGroup(), sample.inFlight(), requeues, previousTopology);
    previousTopology = decision.recommendation().topology();
    samples++;
    int current = kernel.activeWorkerGroups();
    int wanted = decision.activeGroups();
    if (wanted >= current) {
      lowSamples = 0;
      return wanted > current ? apply(current, wanted, decision) : null;
    }
    windowMost = lowSamples == 0 ? wanted : Math.max(windowMost, wanted);
    if (++lowSamples < options.shedWindow()) {
      return null;
    }
    lowSamples = 0;
    return apply(current, windowMost, decision);
  }

  private Change apply(int from, int to, WorkerGroupPolicy.Decision decision) {
    kernel.setActiveWorkerGroups(to);
    changes++;
    Change change = new Change(from, to, decision);
    WorkerGroupsChangedEvent event = new WorkerGroupsChangedEvent();
    if (event.shouldCommit()) {
      event.kernel = kernel.backendName();
      event.from = from;
      event.to = to;
      event.groups = kernel.workerGroups();
      event.queueLen = decision.request().queueLen();
      event.pressure = decision.recommendation().pressure().name();
      event.topology = decision.recommendation().topology().name();
      event.commit();
    }
    listener.accept(change);
    return change;
  }

  /** Samples taken so far. */
  public long samples() {
    return samples;
  }

  /** Changes applied so far. */
  public long changes() {
    return changes;
  }

  /** What the loop's steps on its thread have cost so far; none when it is stepped by hand. */
  public LoopThread.Timing timing() {
    return thread == null ? LoopThread.Timing.NONE : thread.timing();
  }

  /** What ended the loop's thread early (the kernel closed or failed), or null. */
  public VyreException failure() {
    return thread == null ? null : thread.failure();
  }

  /** Stops the loop's thread and waits for it; the kernel keeps its active groups. */
  @Override
  public void close() {
    if (thread != null) {
      thread.close();
    }
  }
}

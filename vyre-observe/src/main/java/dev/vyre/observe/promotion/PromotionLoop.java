package dev.vyre.observe.promotion;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.NotImplementedException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.observe.telemetry.CountMinSketch;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelLaunchRequest;
import dev.vyre.policy.MegakernelPromotionEvidence;
import dev.vyre.policy.MegakernelPromotionRoute;
import dev.vyre.policy.adapt.LoopThread;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.dfa.DfaTableLayout;
import dev.vyre.runtime.dfa.PromotedDfaLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * JIT promotion in a running kernel's loop (docs/POLICY.md, "Promotion"): at a cadence, counts the
 * DFA_STEP tasks in flight per table handle in a count-min sketch ({@link DfaTableSightings}),
 * gives the hottest table's count to {@link MegakernelLaunchPolicy#recommendWithPromotionEvidence}
 * as {@code hot_opcode_count}, and when the route it returns promotes hot opcodes (OpcodeJit or
 * OpcodeAndWindowJit), promotes that table ({@link Megakernel#promoteDfaTable}) if {@link
 * PromotedDfaLayout} takes it. One table is promoted at a time (a GPU block reserves room for one):
 * another replaces it only once the promoted one was not seen for a whole window. The counts start
 * afresh each window.
 *
 * <p>Each promotion and demotion, each refusal (once per table header) and a backend that cannot
 * promote (once; the loop then stops sampling) is a JFR event ({@code dev.vyre.DfaTablePromotion})
 * and a {@link Report} to the listener (a {@code --verbose} line). Closing the loop demotes what it
 * promoted. Run it on a daemon thread with {@link #start}, or step it by hand ({@link #step}).
 */
public final class PromotionLoop implements AutoCloseable {

  /**
   * @param cadence time between samples
   * @param window samples after which the counts start afresh
   */
  public record Options(Duration cadence, int window) {

    public Options {
      if (cadence.isNegative() || cadence.isZero() || window < 1) {
        throw InputException.of("promotion loop", "cadence " + cadence + " and window " + window,
            "give a positive cadence and a window of at least one sample");
      }
    }

    /** A sample every 10 ms; counts start afresh every 50 samples (0.5 s). */
    public static Options defaults() {
      return new Options(Duration.ofMillis(10), 50);
    }
  }

  /** What a report says happened to a table. */
  public enum Kind {
    PROMOTED("promoted"), DEMOTED("demoted"), REFUSED("refused"), UNAVAILABLE("unavailable");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** One promotion, demotion or refusal, with the policy's evidence at that sample. */
  public record Report(Kind kind, int tableHandle, String detail, MegakernelPromotionEvidence evidence) {

    /** One line for {@code --verbose}. */
    public String line() {
      return "promotion: " + kind.label() + " DFA table " + tableHandle + ": " + detail + " (hot count "
          + evidence.hotOpcodeCount() + ", threshold " + evidence.hotOpcodeThreshold() + ", route "
          + evidence.promotionRoute().label() + ", queue " + evidence.queueLen() + ")";
    }
  }

  private static final int SKETCH_DEPTH = 4;
  private static final int SKETCH_WIDTH = 256;
  /** Distinct tables tracked per window; more are counted in the sketch but not considered. */
  private static final int MAX_CANDIDATES = 64;

  private final Megakernel kernel;
  private final DfaTableSightings sightings;
  private final MegakernelLaunchPolicy policy;
  private final Options options;
  private final Consumer<Report> listener;
  private final CountMinSketch sketch = new CountMinSketch(SKETCH_DEPTH, SKETCH_WIDTH);
  private final int[] candidates = new int[MAX_CANDIDATES];
  private int candidateCount;
  private int windowSamples;
  private int promoted = -1;
  private boolean promotedSeen;
  private boolean promotedCold;
  /** Tables refused, by handle: the fingerprint of the contents refused, so each is reported once. */
  private final Map<Integer, Integer> refused = new HashMap<>();
  private boolean unavailable;
  private MegakernelPromotionEvidence evidence;
  private volatile long samples;
  private volatile long promotions;
  private LoopThread thread;

  public PromotionLoop(Megakernel kernel, DfaTableSightings sightings, MegakernelLaunchPolicy policy, Options options,
      Consumer<Report> listener) {
    this.kernel = kernel;
    this.sightings = sightings;
    this.policy = policy;
    this.options = options;
    this.listener = listener;
  }

  /**
   * What every scan job does with its kernel: starts the loop over the kernel's own telemetry with
   * the default options, each report a line to {@code log}; none with {@code -Dvyre.policy.loop=off}
   * (null), as for the worker-group loop.
   */
  public static PromotionLoop attach(Megakernel kernel, Consumer<String> log) {
    if (LoopThread.switchedOff()) {
      return null;
    }
    if (!kernel.promotedDfaIsFaster()) {
      log.accept("promotion: off: the " + kernel.backendName() + " backend has no faster promoted DFA_STEP");
      return null;
    }
    Options options = Options.defaults();
    log.accept("promotion: watching DFA tables every " + options.cadence().toMillis() + " ms; a table seen in "
        + MegakernelLaunchPolicy.standard().hotOpcodeThreshold() + " DFA_STEP slots in " + options.window()
        + " samples is promoted when it fits " + PromotedDfaLayout.MAX_BYTES + " bytes");
    return start(kernel, options, report -> log.accept(report.line()));
  }

  /** A loop over {@code kernel}'s own telemetry with the standard policy, running on a daemon thread. */
  public static PromotionLoop start(Megakernel kernel, Options options, Consumer<Report> listener) {
    PromotionLoop loop = new PromotionLoop(kernel, DfaTableSightings.of(kernel), MegakernelLaunchPolicy.standard(), options,
        listener);
    loop.thread = LoopThread.start("vyre-promotion-" + kernel.backendName(), options.cadence(), loop::step);
    return loop;
  }

  /** Takes one sample and applies what it decides; returns the last report it made, or null. */
  public synchronized Report step() {
    if (unavailable) {
      // The backend cannot promote: no need to copy its ring any more.
      return null;
    }
    DfaTableSightings.Sample sample = sightings.sample();
    samples++;
    for (int i = 0; i < sample.count(); i++) {
      int handle = sample.handles()[i];
      sketch.add(Integer.toUnsignedLong(handle), 1);
      promotedSeen |= handle == promoted;
      addCandidate(handle);
    }
    int hottest = -1;
    long hot = 0;
    for (int i = 0; i < candidateCount; i++) {
      long count = sketch.estimate(Integer.toUnsignedLong(candidates[i]));
      if (count > hot) {
        hot = count;
        hottest = candidates[i];
      }
    }
    evidence = policy.recommendWithPromotionEvidence(MegakernelLaunchRequest.directBuilder(Math.min(sample.inFlight(),
        Unsigned.U32_MAX), kernel.workerGroups(), kernel.lanesPerWorkerGroup()).hotOpcodeCount(Math.min(hot,
        Unsigned.U32_MAX)).build()).evidence();
    Report report = null;
    if (promoted >= 0 && !kernel.isDfaTablePromoted(promoted)) {
      report = report(Kind.DEMOTED, promoted, "its resource was written (demoted before the write)");
      promoted = -1;
    }
    if (++windowSamples >= options.window()) {
      promotedCold = promoted >= 0 && !promotedSeen;
      promotedSeen = false;
      windowSamples = 0;
      candidateCount = 0;
      sketch.clear();
    }
    MegakernelPromotionRoute route = evidence.promotionRoute();
    boolean promotes = route == MegakernelPromotionRoute.OpcodeJit || route == MegakernelPromotionRoute.OpcodeAndWindowJit;
    if (promotes && hottest >= 0 && hottest != promoted && (promoted < 0 || promotedCold)) {
      Report made = promote(hottest);
      report = made != null ? made : report;
    }
    return report;
  }

  private void addCandidate(int handle) {
    for (int i = 0; i < candidateCount; i++) {
      if (candidates[i] == handle) {
        return;
      }
    }
    if (candidateCount < MAX_CANDIDATES) {
      candidates[candidateCount++] = handle;
    }
  }

  /**
   * Reads the table back, compacts it and promotes it, replacing a cold promoted one; null when this
   * table was refused before. A refusal is remembered by the table's header, read first, so a table
   * refused stays unread until its handle holds another.
   */
  private Report promote(int handle) {
    MemorySegment header = Arena.ofAuto().allocate(DfaTableLayout.HEADER_WORDS * 4L, 8);
    MemorySegment table;
    try {
      kernel.readResource(handle, 0, header);
    } catch (VyreException | IndexOutOfBoundsException e) {
      return refuse(handle, 0, noTable(e.getMessage()));
    }
    int fingerprint = Arrays.hashCode(header.toArray(ValueLayout.JAVA_INT));
    Integer refusedHeader = refused.get(handle);
    if (refusedHeader != null && refusedHeader == fingerprint) {
      return null;
    }
    try {
      table = readTable(handle, header);
    } catch (VyreException | IndexOutOfBoundsException e) {
      return refuse(handle, fingerprint, noTable(e.getMessage()));
    }
    int problem = DfaTableLayout.headerProblem(table);
    if (problem >= 0) {
      return refuse(handle, fingerprint, noTable("header word " + problem));
    }
    PromotedDfaLayout.Compaction compaction = PromotedDfaLayout.compact(table);
    if (compaction instanceof PromotedDfaLayout.NotPromotable(PromotedDfaLayout.Refusal refusal, String reason)) {
      return refuse(handle, fingerprint, refusal.name().toLowerCase() + ": " + reason);
    }
    MemorySegment compact = ((PromotedDfaLayout.Compact) compaction).table();
    if (promoted >= 0) {
      int cold = promoted;
      kernel.demoteDfaTable(cold);
      promoted = -1;
      report(Kind.DEMOTED, cold, "no task used it for a whole window; table " + handle + " is hot");
    }
    try {
      kernel.promoteDfaTable(handle, compact);
    } catch (NotImplementedException e) {
      unavailable = true;
      return report(Kind.UNAVAILABLE, handle, e.getMessage());
    } catch (ProtocolException e) {
      // Its contents do not check: not tried again until the header changes.
      return refuse(handle, fingerprint, "the kernel refused it: " + e.getMessage());
    } catch (PipelineException e) {
      if (e.variant() != PipelineException.Variant.Busy) {
        throw e;
      }
      // Written while the kernel checked it: tried again at a later step if it is still hot.
      return null;
    }
    promoted = handle;
    promotedSeen = true;
    promotedCold = false;
    promotions++;
    refused.remove(handle);
    return report(Kind.PROMOTED, handle, Words.get(compact, PromotedDfaLayout.STATE_COUNT_WORD) + " states, "
        + Words.get(compact, PromotedDfaLayout.CLASS_COUNT_WORD) + " byte classes, " + compact.byteSize()
        + " bytes promoted");
  }

  /** The VDFA table at {@code handle} whose {@code header} was read: the words the header says it has, or the header alone when it is none. */
  private MemorySegment readTable(int handle, MemorySegment header) {
    long words = Unsigned.u32(Words.get(header, DfaTableLayout.TOTAL_WORDS_WORD));
    if (Words.get(header, DfaTableLayout.MAGIC_WORD) != DfaTableLayout.MAGIC || words < DfaTableLayout.HEADER_WORDS
        || words > Integer.MAX_VALUE / 4) {
      return header;
    }
    MemorySegment table = Arena.ofAuto().allocate(words * 4, 8);
    kernel.readResource(handle, 0, table);
    return table;
  }

  private static String noTable(String why) {
    return "its resource holds no DFA table (" + why + ")";
  }

  private Report refuse(int handle, int fingerprint, String reason) {
    refused.put(handle, fingerprint);
    return report(Kind.REFUSED, handle, reason);
  }

  private Report report(Kind kind, int handle, String detail) {
    Report report = new Report(kind, handle, detail, evidence);
    DfaTablePromotionEvent event = new DfaTablePromotionEvent();
    if (event.shouldCommit()) {
      event.kernel = kernel.backendName();
      event.kind = kind.label();
      event.tableHandle = handle;
      event.detail = detail;
      event.hotCount = evidence.hotOpcodeCount();
      event.hotThreshold = evidence.hotOpcodeThreshold();
      event.route = evidence.promotionRoute().label();
      event.queueLen = evidence.queueLen();
      event.commit();
    }
    listener.accept(report);
    return report;
  }

  /** The table promoted now, or -1. */
  public synchronized int promotedTable() {
    return promoted;
  }

  /** Samples taken so far. */
  public long samples() {
    return samples;
  }

  /** Promotions made so far. */
  public long promotions() {
    return promotions;
  }

  /** What the loop's steps on its thread have cost so far; none when it is stepped by hand. */
  public LoopThread.Timing timing() {
    return thread == null ? LoopThread.Timing.NONE : thread.timing();
  }

  /** What ended the loop's thread early (the kernel closed or failed), or null. */
  public VyreException failure() {
    return thread == null ? null : thread.failure();
  }

  /** Stops the loop's thread, waits for it, and demotes the table it promoted (a promotion lives as long as its loop). */
  @Override
  public void close() {
    if (thread != null) {
      thread.close();
    }
    synchronized (this) {
      if (promoted >= 0 && kernel.isDfaTablePromoted(promoted)) {
        kernel.demoteDfaTable(promoted);
        report(Kind.DEMOTED, promoted, "the loop closed");
      }
      promoted = -1;
    }
  }
}

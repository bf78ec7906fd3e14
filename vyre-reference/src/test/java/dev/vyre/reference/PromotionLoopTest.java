package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.ProtocolException;
import dev.vyre.observe.promotion.DfaTableSightings;
import dev.vyre.observe.promotion.PromotionLoop;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelPromotionRoute;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.dfa.HitBufferLayout;
import dev.vyre.runtime.dfa.PromotedDfaLayout;
import dev.vyre.runtime.spi.Availability;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanCorpus;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The promotion loop's decisions on the reference backend, stepped by hand over scripted sightings
 * (a hot table is promoted, a cold one is not, an unpromotable one is refused once, a rewritten one
 * is demoted), and DFA_STEP's results with and without promotion, from tasks and from whole scans.
 */
class PromotionLoopTest {

  private static final List<String> WORDS = List.of("he", "she", "his", "hers");

  private Megakernel kernel;
  private final List<PromotionLoop.Report> reports = new ArrayList<>();

  @AfterEach
  void stop() {
    if (kernel != null) {
      kernel.close();
    }
  }

  private Megakernel kernel() {
    kernel = Megakernel.builder().backend(new ReferenceBackend()).slots(256).singlePriority(Priority.NORMAL).workers(2)
        .bootstrap();
    return kernel;
  }

  private int upload(DfaTable table) {
    int handle = kernel.allocateResource(table.byteSize(), ResourcePlacement.DEVICE);
    kernel.writeResource(handle, 0, table.segment());
    return handle;
  }

  /** A loop whose every sample sees {@code sightings} active DFA_STEP slots on {@code handle}. */
  private PromotionLoop scripted(int handle, int sightings) {
    int[] handles = new int[sightings];
    Arrays.fill(handles, handle);
    DfaTableSightings script = () -> new DfaTableSightings.Sample(sightings, handles, sightings);
    return new PromotionLoop(kernel, script, MegakernelLaunchPolicy.standard(), new PromotionLoop.Options(Duration.ofMillis(1), 4),
        reports::add);
  }

  @Test
  void aHotTableIsPromotedAndReportedWithTheEvidence() {
    kernel();
    int handle = upload(AhoCorasickCompiler.compile(PatternSet.fromArguments(WORDS, false)));
    PromotionLoop loop = scripted(handle, 20);
    PromotionLoop.Report report = loop.step();
    assertEquals(PromotionLoop.Kind.PROMOTED, report.kind());
    assertEquals(handle, report.tableHandle());
    assertEquals(MegakernelPromotionRoute.OpcodeJit, report.evidence().promotionRoute());
    assertEquals(20, report.evidence().hotOpcodeCount());
    assertTrue(report.line().startsWith("promotion: promoted DFA table " + handle + ": "), report.line());
    assertTrue(kernel.isDfaTablePromoted(handle));
    assertNull(loop.step(), "a promoted table is not promoted again");
    loop.close();
    assertFalse(kernel.isDfaTablePromoted(handle), "closing the loop demotes what it promoted");
    assertEquals(PromotionLoop.Kind.DEMOTED, reports.getLast().kind());
  }

  @Test
  void aColdTableIsNotPromoted() {
    kernel();
    int handle = upload(AhoCorasickCompiler.compile(PatternSet.fromArguments(WORDS, false)));
    PromotionLoop loop = scripted(handle, 1);
    // Four samples a window, one sighting each: the count never reaches the policy's threshold of 8.
    for (int i = 0; i < 12; i++) {
      assertNull(loop.step());
    }
    assertFalse(kernel.isDfaTablePromoted(handle));
    assertTrue(reports.isEmpty());
  }

  @Test
  void anUnpromotableTableIsRefusedOnceWithTheReason() {
    kernel();
    int handle = upload(AhoCorasickCompiler.compile(PatternSet.fromArguments(ScanCorpus.literals(4000,
        ScanCorpus.DEFAULT_SEED), false)));
    PromotionLoop loop = scripted(handle, 20);
    PromotionLoop.Report report = loop.step();
    assertEquals(PromotionLoop.Kind.REFUSED, report.kind());
    assertTrue(report.detail().startsWith("too_many_"), report.detail());
    assertNull(loop.step(), "the refusal is reported once");
    assertEquals(1, reports.size());
    assertFalse(kernel.isDfaTablePromoted(handle));
  }

  @Test
  void aRewrittenTableIsDemotedBeforeTheWriteAndReported() {
    kernel();
    int handle = upload(AhoCorasickCompiler.compile(PatternSet.fromArguments(WORDS, false)));
    PromotionLoop loop = scripted(handle, 20);
    assertEquals(PromotionLoop.Kind.PROMOTED, loop.step().kind());
    kernel.writeResource(handle, 0, AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of("ha", "sha"), false))
        .segment());
    assertFalse(kernel.isDfaTablePromoted(handle));
    loop.step();
    assertEquals(List.of(PromotionLoop.Kind.PROMOTED, PromotionLoop.Kind.DEMOTED, PromotionLoop.Kind.PROMOTED),
        reports.stream().map(PromotionLoop.Report::kind).toList(), "the new table is hot too: " + reports);
    assertTrue(reports.get(1).detail().contains("written"), reports.get(1).detail());
    assertTrue(kernel.isDfaTablePromoted(handle));
  }

  @Test
  void theKernelRefusesAPromotedTableOfAnotherTable() {
    kernel();
    int handle = upload(AhoCorasickCompiler.compile(PatternSet.fromArguments(WORDS, false)));
    MemorySegment other = ((PromotedDfaLayout.Compact) PromotedDfaLayout.compact(
        AhoCorasickCompiler.compile(PatternSet.fromArguments(List.of("ha", "sha"), false)).segment())).table();
    assertThrows(ProtocolException.class, () -> kernel.promoteDfaTable(handle, other));
    assertFalse(kernel.isDfaTablePromoted(handle));
  }

  /** A backend that cannot promote (the SPI's default): reported once, then the loop stops sampling. */
  @Test
  void aBackendThatCannotPromoteIsReportedOnce() {
    MegakernelBackend withoutPromotion = referenceThrough("no-promotion", session -> (proxy, method, args) ->
        method.getName().equals("promoteDfaTable") ? InvocationHandler.invokeDefault(proxy, method, args)
            : invoke(method, session, args));
    kernel = Megakernel.builder().backend(withoutPromotion).slots(64).singlePriority(Priority.NORMAL).workers(1).bootstrap();
    int handle = upload(AhoCorasickCompiler.compile(PatternSet.fromArguments(WORDS, false)));
    int[] sampled = {0};
    int[] handles = new int[20];
    Arrays.fill(handles, handle);
    PromotionLoop loop = new PromotionLoop(kernel, () -> {
      sampled[0]++;
      return new DfaTableSightings.Sample(20, handles, 20);
    }, MegakernelLaunchPolicy.standard(), new PromotionLoop.Options(Duration.ofMillis(1), 4), reports::add);
    PromotionLoop.Report report = loop.step();
    assertEquals(PromotionLoop.Kind.UNAVAILABLE, report.kind());
    assertTrue(report.detail().contains("not implemented yet (issue #23). Fix: "), report.detail());
    assertNull(loop.step());
    assertEquals(1, sampled[0], "no sample after the backend said it cannot promote");
    assertEquals(1, reports.size());
    assertFalse(kernel.isDfaTablePromoted(handle));
  }

  /** A table written while its promotion is checked is not promoted then, and is at the loop's next step. */
  @Test
  void aTableWrittenWhileItsPromotionIsCheckedIsPromotedAtALaterStep() {
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(WORDS, false));
    boolean[] writeDuringCheck = {true};
    MegakernelBackend writing = referenceThrough("writes-during-check", session -> (proxy, method, args) -> {
      if (method.getName().equals("checkDfaPromotion") && writeDuringCheck[0]) {
        writeDuringCheck[0] = false;
        kernel.writeResource((int) args[0], 0, table.segment());
      }
      return invoke(method, session, args);
    });
    kernel = Megakernel.builder().backend(writing).slots(64).singlePriority(Priority.NORMAL).workers(1).bootstrap();
    int handle = upload(table);
    int[] handles = new int[20];
    Arrays.fill(handles, handle);
    PromotionLoop loop = new PromotionLoop(kernel, () -> new DfaTableSightings.Sample(20, handles, 20),
        MegakernelLaunchPolicy.standard(), new PromotionLoop.Options(Duration.ofMillis(1), 4), reports::add);
    assertNull(loop.step(), "busy: written while checked");
    assertFalse(kernel.isDfaTablePromoted(handle));
    assertEquals(PromotionLoop.Kind.PROMOTED, loop.step().kind());
    assertTrue(kernel.isDfaTablePromoted(handle));
  }

  /** The reference backend, every call of its sessions going through the handler made for the real session. */
  private static MegakernelBackend referenceThrough(String name, Function<KernelSession, InvocationHandler> handler) {
    ReferenceBackend reference = new ReferenceBackend();
    return new MegakernelBackend() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public int precedence() {
        return 0;
      }

      @Override
      public Availability availability() {
        return reference.availability();
      }

      @Override
      public KernelSession open(KernelSpec spec) {
        return (KernelSession) Proxy.newProxyInstance(KernelSession.class.getClassLoader(), new Class<?>[] {KernelSession.class},
            handler.apply(reference.open(spec)));
      }
    };
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** The same tasks, interpreted and promoted: the same records, in the same order, and the same final states. */
  @Test
  void dfaStepTasksGiveTheSameRecordsPromoted() {
    kernel();
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(ScanCorpus.literals(100, 7), false));
    int dfa = upload(table);
    MemorySegment text = Arena.ofAuto().allocate(1 << 16, 4096);
    ScanCorpus.fill(text, ScanCorpus.literals(100, 7), 7);
    int input = kernel.allocateResource(text.byteSize(), ResourcePlacement.HOST_MAPPED);
    kernel.writeResource(input, 0, text);
    MemorySegment interpreted = run(dfa, input, text.byteSize());
    kernel.promoteDfaTable(dfa, ((PromotedDfaLayout.Compact) PromotedDfaLayout.compact(table.segment())).table());
    MemorySegment promoted = run(dfa, input, text.byteSize());
    assertTrue(HitBufferLayout.cursor(interpreted) > 10, "the corpus plants matches");
    assertEquals(HitBufferLayout.readAll(interpreted), HitBufferLayout.readAll(promoted));
  }

  /** One DFA_STEP task over the whole input into a fresh hit buffer (one task: records in the step's own order). */
  private MemorySegment run(int dfa, int input, long bytes) {
    long capacity = bytes;
    int hits = kernel.allocateResource(HitBufferLayout.byteSize(capacity), ResourcePlacement.DEVICE);
    kernel.writeResource(hits, 0, MemorySegment.ofArray(new int[] {0, (int) capacity, 0, 0}));
    long ticket = kernel.publish(0, Priority.NORMAL, DfaStepArgs.OPCODE,
        new DfaStepArgs(input, 0, bytes, dfa, 0, hits, 1, 0, 0).toArgs());
    assertTrue(kernel.await(ticket, Duration.ofSeconds(30)));
    MemorySegment copy = Arena.ofAuto().allocate(HitBufferLayout.byteSize(capacity), 4);
    kernel.readResource(hits, 0, copy);
    return copy;
  }

  /** A scan job's output while the running loop promotes its table: the same as without promotion. */
  @Test
  void aScanGivesTheSameOutputOnceItsTableIsPromoted(@TempDir Path dir) throws Exception {
    Megakernel scanKernel = kernel();
    List<String> words = ScanCorpus.literals(100, ScanCorpus.DEFAULT_SEED);
    Path file = dir.resolve("corpus");
    MemorySegment text = Arena.ofAuto().allocate(4 << 20, 4096);
    ScanCorpus.fill(text, words, ScanCorpus.DEFAULT_SEED);
    Files.write(file, text.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(words, false));
    List<ScanFile> files = List.of(new ScanFile(file, text.byteSize()));
    ScanOptions options = ScanOptions.forBackend("reference").fittedTo(text.byteSize()).fittingHitCounter(table);
    try (ScanJob job = new ScanJob(scanKernel, table, options)) {
      List<String> baseline = scan(job, files);
      try (PromotionLoop loop = PromotionLoop.start(scanKernel, new PromotionLoop.Options(Duration.ofMillis(1), 20),
          reports::add)) {
        // Scans until the loop has promoted (it samples while tasks are in flight), each checked, then once more.
        for (int i = 0; i < 200 && loop.promotions() == 0; i++) {
          assertEquals(baseline, scan(job, files));
        }
        assertTrue(loop.promotions() > 0, "no promotion: " + reports);
        assertEquals(baseline, scan(job, files));
      }
    }
  }

  /** Each file's matches and hits (start, pattern), in the order the job delivered them. */
  private static List<String> scan(ScanJob job, List<ScanFile> files) {
    List<String> results = new ArrayList<>();
    job.run(files, result -> {
      StringBuilder line = new StringBuilder(result.inputId() + ": " + result.matches() + " matches");
      for (int i = 0; i < result.hits().size(); i++) {
        line.append(' ').append(result.hits().start(i)).append('/').append(result.hits().patternId(i));
      }
      results.add(line.toString());
    });
    return results;
  }
}

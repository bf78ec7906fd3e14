package dev.vyre.jmh;

import dev.vyre.runtime.dfa.DfaStep;
import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.dfa.HitBufferLayout;
import dev.vyre.runtime.dfa.PromotedDfa;
import dev.vyre.runtime.dfa.PromotedDfaLayout;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.ChunkPlanner;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanCorpus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of DFA_STEP on the CPU: one call over an in-memory {@link ScanCorpus} (64 MiB and 100
 * literals by default), and the same bytes as 1 MiB chunks the way {@code vyre scan} feeds them,
 * each interpreted over the VDFA table ({@link DfaStep}) and over its promoted form ({@link PromotedDfa},
 * what the reference backend runs once the promotion loop promoted the table).
 * GB/s = corpusBytes / score. {@code vyre bench scan --size BYTES} measures the whole scan engine and
 * {@code grep -F -c} on the same corpus.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class DfaStepBenchmark {

  private static final long CHUNK_BYTES = 1 << 20;

  @Param("67108864")
  long corpusBytes;

  @Param("100")
  int literals;

  private Arena arena;
  private MemorySegment input;
  private MemorySegment dfa;
  private MemorySegment hits;
  private ChunkPlanner plan;
  private PromotedDfa promoted;

  @Setup(Level.Trial)
  public void setUp() {
    arena = Arena.ofShared();
    List<String> words = ScanCorpus.literals(literals, ScanCorpus.DEFAULT_SEED);
    input = arena.allocate(corpusBytes, 4096);
    ScanCorpus.fill(input, words, ScanCorpus.DEFAULT_SEED);
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(words, false));
    dfa = arena.allocate(table.byteSize(), 4096);
    table.copyTo(dfa);
    plan = ChunkPlanner.of(corpusBytes, CHUNK_BYTES, table.maxPatternLength());
    if (!(PromotedDfaLayout.compact(table.segment()) instanceof PromotedDfaLayout.Compact(MemorySegment compact))) {
      throw new IllegalStateException(literals + " literals make a table too large to promote: " + table.describe());
    }
    promoted = PromotedDfa.of(compact, dfa, "promoted table");
    long capacity = corpusBytes / 64;
    hits = arena.allocate(HitBufferLayout.byteSize(capacity), 4096);
    HitBufferLayout.init(hits, capacity);
    System.out.println("\n" + table.describe());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    arena.close();
  }

  @Benchmark
  public int wholeBuffer() {
    HitBufferLayout.reset(hits);
    return DfaStep.run(input, 0, corpusBytes, dfa, 0, hits, 0, 0, 0);
  }

  @Benchmark
  public int promotedWholeBuffer() {
    HitBufferLayout.reset(hits);
    return promoted.run(input, 0, corpusBytes, 0, hits, 0, 0, 0, DfaStepArgs.MODE_RECORDS);
  }

  @Benchmark
  public long promotedChunks1MiB() {
    HitBufferLayout.reset(hits);
    long states = 0;
    for (long i = 0; i < plan.chunkCount(); i++) {
      ChunkPlanner.Chunk chunk = plan.chunk(i);
      states += promoted.run(input, chunk.readOffset(), chunk.readLength(), 0, hits, 0, chunk.readOffset(),
          chunk.reportFrom(), DfaStepArgs.MODE_RECORDS);
    }
    return states;
  }

  @Benchmark
  public long chunks1MiB() {
    HitBufferLayout.reset(hits);
    long states = 0;
    for (long i = 0; i < plan.chunkCount(); i++) {
      ChunkPlanner.Chunk chunk = plan.chunk(i);
      states += DfaStep.run(input, chunk.readOffset(), chunk.readLength(), dfa, 0, hits, 0, chunk.readOffset(),
          chunk.reportFrom());
    }
    return states;
  }
}

package dev.vyre.stress;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;

/**
 * Runs this module's jcstress tests in their own JVMs, forked by jcstress, and fails when any of
 * them saw a forbidden outcome or one no {@code @Outcome} names, failed, or did not run at all
 * (jcstress itself only prints that a test it cannot schedule will not run).
 *
 * <p>{@code -Dvyre.stress.mode} picks how hard: {@code ci} (the default) runs each test in one
 * fork for a second, in one JVM configuration (C2 with its scheduling randomized), on two CPUs,
 * which keeps {@code ./mvnw test} on a two-core machine short; {@code sanity}, {@code quick},
 * {@code default}, {@code tough} and {@code stress} are jcstress's presets, on every CPU and in every
 * JVM configuration it finds (interpreter, C1, C2, each actor compiled its own way).
 * {@code -Dvyre.stress.tests} narrows the run to the tests whose names match a regular expression.
 * The console report goes to target/surefire-reports, the HTML one to target/jcstress/results.
 */
class MemoryOrderingStressTest {

  /**
   * jcstress pads its result objects with @Contended, which it fails to enable itself when the class
   * path holds directories (its probe then reads them as jars), as Maven's reactor builds do.
   */
  private static final String CONTENDED = "-XX:-RestrictContended";
  /** C2 with its scheduling randomized: code motion the JIT may do becomes likelier to show. */
  private static final String C2_STRESS = "-XX:+UnlockDiagnosticVMOptions -XX:+StressLCM -XX:+StressGCM -XX:+StressIGVN -XX:+StressCCP";

  @Test
  void noTestSeesAForbiddenOutcome() throws Exception {
    String mode = System.getProperty("vyre.stress.mode", "ci");
    String tests = System.getProperty("vyre.stress.tests", ".*");
    Options options = new Options(arguments(mode, tests).toArray(String[]::new));
    assertTrue(options.parse(), "jcstress refused the options of mode " + mode);

    List<String> failures = new ArrayList<>();
    try {
      new JCStress(options).run();
    } catch (AssertionError e) {
      // jcstress's own verdict: forbidden or unknown outcomes, test errors, crashed JVMs.
      failures.add(e.getMessage());
    }
    SortedSet<String> notRun = new TreeSet<>(new JCStress(options).getTests());
    assertTrue(!notRun.isEmpty(), "no jcstress test matches " + tests + " (is the annotation processor running?)");
    for (TestResult result : results(options)) {
      notRun.remove(result.getName());
      // jcstress passes over API_MISMATCH (a test built against other classes than it runs with).
      if (result.status() != Status.NORMAL) {
        failures.add(result.getName() + " ended " + result.status() + ": "
            + result.getMessages().stream().limit(2).collect(Collectors.joining(" ")));
      }
    }
    if (!notRun.isEmpty()) {
      failures.add("did not run (jcstress could not schedule them: each needs a CPU per actor): " + notRun);
    }
    if (!failures.isEmpty()) {
      failures.add("jcstress's report: target/surefire-reports/" + getClass().getName() + "-output.txt, target/jcstress/results/index.html");
      fail(String.join(System.lineSeparator(), failures));
    }
  }

  private static List<String> arguments(String mode, String tests) {
    // Epochs of 4 strides of 64 states instead of 40 of 256: a state is a whole host side, and each
    // fork first grows an epoch to full size to measure it.
    List<String> args = new ArrayList<>(List.of("-t", tests, "-r", "results", "-strideSize", "64", "-strideCount", "4"));
    if (!mode.equals("ci")) {
      args.addAll(List.of("-m", mode, "-jvmArgsPrepend", CONTENDED));
      return args;
    }
    // One fork per test, in one configuration (-jvmArgs replaces jcstress's list), its actors
    // compiled together (-sc false), for quick's second in two iterations rather than five (each
    // one allocates its states and starts its threads anew), with no heap pre-touch (it only slows
    // each fork's start).
    int cpus = Math.min(2, Runtime.getRuntime().availableProcessors());
    args.addAll(List.of("-m", "quick", "-iters", "2", "-time", "500", "-c", Integer.toString(cpus), "-sc", "false",
        "-pth", "false", "-jvmArgs", C2_STRESS + " " + CONTENDED));
    return args;
  }

  /** Every result the run wrote to its result file. */
  private static Collection<TestResult> results(Options options) throws Exception {
    InProcessCollector collector = new InProcessCollector();
    DiskReadCollector reader = new DiskReadCollector(options.getResultFile(), collector);
    reader.dump();
    reader.close();
    return collector.getTestResults();
  }
}

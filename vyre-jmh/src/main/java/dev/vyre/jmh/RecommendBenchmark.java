package dev.vyre.jmh;

import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelLaunchRecommendation;
import dev.vyre.policy.MegakernelLaunchRequest;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@link MegakernelLaunchPolicy#recommend} through its per-thread cache. A hit looks up a request
 * equal to, but not the same object as, the cached one, so the key compare is complete. A miss
 * rotates through 256 distinct requests, twice the cache capacity, so least-recently-used eviction
 * makes every lookup miss; the requests carry graph telemetry without a frontier density, so a miss
 * also runs the inference. Goals: 30 ns a hit, 300 ns a miss.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RecommendBenchmark {

  private static final int ROTATION = 256;

  private final MegakernelLaunchPolicy policy = MegakernelLaunchPolicy.standard();
  private final MegakernelLaunchRequest[] requests = new MegakernelLaunchRequest[ROTATION];
  private MegakernelLaunchRequest cachedCopy;
  private int next;

  @Setup
  public void setUp() {
    MegakernelLaunchPolicy.resetLaunchCacheForThread();
    for (int i = 0; i < ROTATION; i++) {
      requests[i] = MegakernelLaunchRequest.directBuilder(90_000 + i, 256, 256).graphNodeCount(100_000)
          .graphEdgeCount(750_000).hotOpcodeCount(8).build();
    }
    cachedCopy = requests[0].toBuilder().build();
    policy.recommend(requests[0]);
  }

  @Benchmark
  public MegakernelLaunchRecommendation hit() {
    return policy.recommend(cachedCopy);
  }

  @Benchmark
  public MegakernelLaunchRecommendation miss() {
    next = (next + 1) & (ROTATION - 1);
    return policy.recommend(requests[next]);
  }
}

package dev.vyre.graph.frontier;

import java.util.Arrays;
import java.util.List;

/**
 * What both backends' Afforest share (Sutton, Ben-Nun and Barak, "Optimizing Parallel Graph
 * Connectivity Computation via Subgraph Sampling", IPDPS 2018; the GAP benchmark suite's CC): the
 * constants, the order of the phases, and the deterministic sample of the most frequent component.
 *
 * <p>Every vertex starts as a tree of its own. Linking two vertices hooks the larger of their roots
 * under the smaller with a compare-and-set, so a vertex's parent is never larger than it and every
 * root is the smallest id of its tree. Each of {@link #NEIGHBOR_ROUNDS} rounds links every vertex
 * with its neighbour of that index and compresses; the most frequent root among {@link #SAMPLES}
 * sampled vertices is then the component most likely the largest, and only the vertices outside it
 * link with their remaining neighbours: an edge from inside it to outside is linked from its outer
 * end, because the graph is symmetric (a directed graph is symmetrized first, where GAP would also
 * walk a directed graph's in-edges). The final compress leaves every vertex labelled with its
 * component's smallest id.
 */
public final class Afforest {

  /** Rounds of neighbour sampling, GAP's. */
  public static final int NEIGHBOR_ROUNDS = 2;
  /** Vertices sampled to find the most frequent component, GAP's. */
  public static final int SAMPLES = 1024;
  /** Seeds the sample; the CUDA kernel's {@code VF_SAMPLE_SEED}. */
  public static final long SAMPLE_SEED = 0x5EED_AF0E_57L;

  /** One phase of the plan. */
  public record Planned(AfforestPhase.Step step, int round) {}

  /** The phases every run takes, in order. */
  public static final List<Planned> PLAN = List.of(new Planned(AfforestPhase.Step.INIT, -1),
      new Planned(AfforestPhase.Step.LINK_NEIGHBOUR, 0), new Planned(AfforestPhase.Step.COMPRESS, 0),
      new Planned(AfforestPhase.Step.LINK_NEIGHBOUR, 1), new Planned(AfforestPhase.Step.COMPRESS, 1),
      new Planned(AfforestPhase.Step.SAMPLE, -1), new Planned(AfforestPhase.Step.LINK_REST, -1),
      new Planned(AfforestPhase.Step.FINAL_COMPRESS, -1));

  /**
   * The most frequent label among the samples and how many samples hold it.
   *
   * @param label the label, -1 for a graph without vertices
   * @param samples the samples that hold it
   */
  public record Sampled(int label, int samples) {}

  private Afforest() {}

  /** Sample {@code i}'s vertex of {@code n} (n > 0): SplitMix64 of the seed and i, the CUDA kernel's {@code vf_sample_vertex}. */
  public static int sampleVertex(int i, int n) {
    long z = SAMPLE_SEED + (i + 1L) * 0x9E37_79B9_7F4A_7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return (int) Long.remainderUnsigned(z ^ (z >>> 31), n);
  }

  /**
   * The most frequent of the labels of the {@link #SAMPLES} sampled vertices, the smallest label
   * among equally frequent ones (as the CUDA kernel breaks ties), read from compressed labels.
   */
  public static Sampled mostFrequent(int[] labels) {
    int n = labels.length;
    if (n == 0) {
      return new Sampled(-1, 0);
    }
    int[] sampled = new int[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
      sampled[i] = labels[sampleVertex(i, n)];
    }
    Arrays.sort(sampled);
    int best = sampled[0];
    int bestRun = 0;
    for (int i = 0; i < SAMPLES;) {
      int j = i;
      while (j < SAMPLES && sampled[j] == sampled[i]) {
        j++;
      }
      if (j - i > bestRun) {
        best = sampled[i];
        bestRun = j - i;
      }
      i = j;
    }
    return new Sampled(best, bestRun);
  }
}

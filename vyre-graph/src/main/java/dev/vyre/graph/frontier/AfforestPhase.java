package dev.vyre.graph.frontier;

import java.util.Locale;

/**
 * One phase of an Afforest run ({@link Afforest}), as {@code --verbose} reports it.
 *
 * @param step what ran
 * @param round the neighbour round of a {@link Step#LINK_NEIGHBOUR} and of the {@link Step#COMPRESS}
 *     after it; -1 for the other steps
 * @param vertices the vertices the phase worked on: every vertex ({@code INIT}, {@code COMPRESS},
 *     {@code FINAL_COMPRESS}); those with a neighbour of index {@code round} ({@code
 *     LINK_NEIGHBOUR}); the samples that fell in the most frequent component ({@code SAMPLE}, of
 *     {@link Afforest#SAMPLES}); those outside it with more than {@link Afforest#NEIGHBOR_ROUNDS}
 *     neighbours ({@code LINK_REST})
 * @param edges the edges linked along: one a vertex in {@code LINK_NEIGHBOUR}, every neighbour from
 *     index {@link Afforest#NEIGHBOR_ROUNDS} on in {@code LINK_REST}, none in the other steps
 * @param nanos the phase's time, the barrier that ends it included
 */
public record AfforestPhase(Step step, int round, long vertices, long edges, long nanos) {

  /** Afforest's steps, in the order a run takes them ({@link Afforest#PLAN}); the CUDA kernel logs their ordinals. */
  public enum Step {
    /** Every vertex a tree of its own. */
    INIT,
    /** Every vertex linked with its neighbour of index {@code round}. */
    LINK_NEIGHBOUR,
    /** Pointer jumping: every vertex points at its tree's root. */
    COMPRESS,
    /** The most frequent root among {@link Afforest#SAMPLES} sampled vertices: the component most likely the largest. */
    SAMPLE,
    /** Every vertex outside the sampled component linked with its remaining neighbours. */
    LINK_REST,
    /** Pointer jumping again: every vertex labelled with its root, the smallest id of its component. */
    FINAL_COMPRESS
  }

  /** One line for {@code --verbose}. */
  public String describe() {
    String name = step.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    return String.format("%s%s: %,d vertices, %,d edges, %.3f ms", name, round >= 0 ? " " + round : "", vertices,
        edges, nanos / 1e6);
  }
}

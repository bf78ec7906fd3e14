package dev.vyre.graph;

import dev.vyre.driver.error.InputException;
import java.util.SplittableRandom;

/**
 * Synthetic graphs for tests and benchmarks. Each is generated in parallel and is the same for the
 * same arguments whatever the number of threads: edges are made in fixed blocks, each from its own
 * {@link SplittableRandom} seeded from the seed and the block number.
 */
public final class GraphGenerators {

  /** Graph500's Kronecker initiator: the chance an edge falls in each quadrant, at every level. */
  public static final double A = 0.57;
  /** The upper right quadrant (source bit clear, target bit set). */
  public static final double B = 0.19;
  /** The lower left quadrant (source bit set, target bit clear). */
  public static final double C = 0.19;
  /** The lower right quadrant (both bits set); {@code 1 - A - B - C}. */
  public static final double D = 0.05;

  // Edges a random block: the unit of determinism, and of parallel work.
  private static final long BLOCK = 1 << 16;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private GraphGenerators() {}

  /**
   * A Kronecker (R-MAT) graph with Graph500's parameters: {@code 2^scale} vertices and
   * {@code edgeFactor * 2^scale} undirected edges, each placed by choosing a quadrant of the
   * adjacency matrix with chances {@link #A}, {@link #B}, {@link #C}, {@link #D} at each of
   * {@code scale} levels. Self loops and duplicates are then dropped, so the graph has somewhat
   * fewer edges.
   *
   * <p>Vertex ids are not permuted (Graph500 and GAP shuffle them): vertex 0 is the largest hub and
   * low ids are the dense corner, which keeps locality effects visible and the generator free of an
   * n-sized permutation. Permute later if a benchmark needs the shuffled labels.
   *
   * @param scale log2 of the vertex count, 0 to 30
   * @param edgeFactor edges a vertex, zero or more (Graph500 uses 16)
   * @param seed the seed; the same seed gives the same graph
   * @return the undirected graph, which the caller must close
   */
  public static CsrGraph kronecker(int scale, int edgeFactor, long seed) {
    if (scale < 0 || scale > 30) {
      throw InputException.of("kronecker generator", "scale " + scale + " is outside 0..30",
          "give a scale from 0 to 30 (2^30 vertices, ids are ints)");
    }
    checkNonNegative("kronecker generator", "edge factor", edgeFactor);
    int n = 1 << scale;
    long m = (long) edgeFactor << scale;
    try (EdgeList edges = EdgeList.allocate(m)) {
      fill(edges, seed, (random, e) -> {
        int u = 0;
        int v = 0;
        for (int level = 0; level < scale; level++) {
          double r = random.nextDouble();
          int bit = 1 << level;
          if (r >= A) {
            if (r < A + B) {
              v |= bit;
            } else if (r < A + B + C) {
              u |= bit;
            } else {
              u |= bit;
              v |= bit;
            }
          }
        }
        edges.set(e, u, v);
      });
      return CsrGraph.build(edges, n, true);
    }
  }

  /**
   * A {@code rows x cols} grid: vertex {@code r * cols + c} is joined to its up, down, left and
   * right neighbours, undirected, without wrap-around. It has {@code 2 * (rows * (cols - 1) + cols *
   * (rows - 1))} arcs.
   *
   * @param rows the number of rows, zero or more
   * @param cols the number of columns, zero or more
   * @return the undirected graph, which the caller must close
   */
  public static CsrGraph grid(int rows, int cols) {
    checkNonNegative("grid generator", "rows", rows);
    checkNonNegative("grid generator", "cols", cols);
    long n = (long) rows * cols;
    if (n > Integer.MAX_VALUE) {
      throw InputException.of("grid generator", "a " + rows + " x " + cols + " grid has " + n + " vertices, more than "
          + Integer.MAX_VALUE, "make the grid smaller (vertex ids are ints)");
    }
    long right = rows == 0 || cols == 0 ? 0 : (long) rows * (cols - 1);
    long down = rows == 0 || cols == 0 ? 0 : (long) cols * (rows - 1);
    try (EdgeList edges = EdgeList.allocate(right + down)) {
      // Row r owns right edges [r * (cols - 1), ...) and, below it, down edges right + [r * cols, ...).
      Parallel.forRanges(rows, Math.max(1, (1 << 14) / Math.max(1, cols)), (from, to) -> {
        for (long r = from; r < to; r++) {
          int base = (int) (r * cols);
          for (int c = 0; c + 1 < cols; c++) {
            edges.set(r * (cols - 1) + c, base + c, base + c + 1);
          }
          if (r + 1 < rows) {
            for (int c = 0; c < cols; c++) {
              edges.set(right + r * cols + c, base + c, base + cols + c);
            }
          }
        }
      });
      return CsrGraph.build(edges, (int) n, true);
    }
  }

  /**
   * A uniform random (Erdős–Rényi style) graph: {@code vertices * degree / 2} undirected edges, each
   * joining two vertices chosen uniformly, so the mean degree is about {@code degree} (a little less
   * once self loops and duplicates are dropped).
   *
   * @param vertices the number of vertices, zero or more
   * @param degree the mean degree wanted, zero or more
   * @param seed the seed; the same seed gives the same graph
   * @return the undirected graph, which the caller must close
   */
  public static CsrGraph uniform(int vertices, int degree, long seed) {
    checkNonNegative("uniform generator", "vertices", vertices);
    checkNonNegative("uniform generator", "degree", degree);
    if (vertices == 0 && degree > 0) {
      throw InputException.of("uniform generator", "a graph of 0 vertices cannot have degree " + degree,
          "give at least one vertex, or degree 0");
    }
    long m = (long) vertices * degree / 2;
    try (EdgeList edges = EdgeList.allocate(m)) {
      fill(edges, seed, (random, e) -> edges.set(e, random.nextInt(vertices), random.nextInt(vertices)));
      return CsrGraph.build(edges, vertices, true);
    }
  }

  @FunctionalInterface
  private interface EdgeMaker {
    void make(SplittableRandom random, long edge);
  }

  /** Makes every edge in parallel, block {@code b} from a generator seeded by {@code (seed, b)}. */
  private static void fill(EdgeList edges, long seed, EdgeMaker maker) {
    long blocks = (edges.size() + BLOCK - 1) / BLOCK;
    Parallel.forRanges(blocks, 1, (from, to) -> {
      for (long b = from; b < to; b++) {
        SplittableRandom random = new SplittableRandom(mix(seed + GOLDEN * (b + 1)));
        for (long e = b * BLOCK, end = Math.min(edges.size(), (b + 1) * BLOCK); e < end; e++) {
          maker.make(random, e);
        }
      }
    });
  }

  /** Stafford's mix13, as SplittableRandom uses: nearby block numbers give unrelated seeds. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static void checkNonNegative(String source, String what, int value) {
    if (value < 0) {
      throw InputException.of(source, what + " is " + value, "give " + what + " as zero or more");
    }
  }
}

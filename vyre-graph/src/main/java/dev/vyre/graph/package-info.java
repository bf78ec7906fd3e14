/**
 * Graphs for the frontier engine: {@link dev.vyre.graph.CsrGraph}, an immutable compressed-sparse-row
 * graph held off-heap in the form a kernel reads, built in parallel from an {@link
 * dev.vyre.graph.EdgeList}, with its transpose and symmetrized graph; {@link
 * dev.vyre.graph.MatrixMarketReader} and {@link dev.vyre.graph.EdgeListReader} for the SuiteSparse and
 * SNAP/GAP file formats, {@link dev.vyre.graph.MatrixMarketWriter} to save a graph, and {@link
 * dev.vyre.graph.GraphGenerators} for Kronecker (Graph500), grid and uniform random graphs. The
 * traversals are in {@link dev.vyre.graph.frontier}.
 */
package dev.vyre.graph;

/**
 * Graphs for the frontier engine, the future graph traversal on the megakernel. What is here now is
 * the input side: {@link dev.vyre.graph.CsrGraph}, an immutable compressed-sparse-row graph held
 * off-heap in the form a kernel will read, built in parallel from an {@link dev.vyre.graph.EdgeList};
 * {@link dev.vyre.graph.MatrixMarketReader} and {@link dev.vyre.graph.EdgeListReader} for the
 * SuiteSparse and SNAP/GAP file formats, {@link dev.vyre.graph.MatrixMarketWriter} to save a graph,
 * and {@link dev.vyre.graph.GraphGenerators} for Kronecker (Graph500), grid and uniform random
 * graphs. Traversal itself (frontiers, BFS and the kernels behind them) is still to come.
 */
package dev.vyre.graph;

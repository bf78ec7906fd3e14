/**
 * The {@code reference} frontier backend: persistent Java worker threads that run each level of a
 * traversal with the topology the policy decided, on the graph's off-heap arrays. Not exported;
 * reached through {@link dev.vyre.graph.frontier.FrontierEngines}.
 */
package dev.vyre.graph.reference;

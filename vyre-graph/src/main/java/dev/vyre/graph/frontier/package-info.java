/**
 * The frontier engine: graph traversals whose levels are waves of the engine, each run with the
 * topology the seed selector picks for it ({@link dev.vyre.graph.frontier.FrontierPolicy}) under the
 * memory plan ({@link dev.vyre.graph.frontier.FrontierResidency}). {@link
 * dev.vyre.graph.frontier.FrontierEngines} opens an engine on a backend; {@link
 * dev.vyre.graph.frontier.FrontierEngine} runs BFS and connected components.
 */
package dev.vyre.graph.frontier;

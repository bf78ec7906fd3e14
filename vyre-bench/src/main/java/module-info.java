/**
 * The measuring harness behind {@code vyre bench}: dispatch round trips and throughput, the reads
 * tasks ask for, and scan throughput against grep, each on a live megakernel; scans of a real tree
 * against ripgrep and grep, as processes; graph traversal on
 * the frontier engine. The {@code vyre} command parses the options and prints the measures; the
 * measuring is here.
 */
module dev.vyre.bench {
  requires transitive dev.vyre.io;
  requires transitive dev.vyre.scan;
  requires transitive dev.vyre.graph;
  requires dev.vyre.policy;
  requires dev.vyre.observe;
  requires dev.vyre.cuda;
  requires java.management;
  requires jdk.management;

  exports dev.vyre.bench;
}

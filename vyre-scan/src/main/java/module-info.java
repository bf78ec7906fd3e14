/** Multi-pattern scanning: patterns, the Aho-Corasick DFA compiler, file targets, and the scan job. */
module dev.vyre.scan {
  requires transitive dev.vyre.runtime;
  requires transitive dev.vyre.io;
  requires dev.vyre.policy;

  exports dev.vyre.scan;
}

/**
 * The launch and sizing policy: grid sizing, launch recommendations, topology and promotion routes,
 * priority aging and drain, and the ported work-item and mixed-work data types.
 */
module dev.vyre.policy {
  requires transitive dev.vyre.runtime;
  requires jdk.jfr;

  exports dev.vyre.policy;
  exports dev.vyre.policy.adapt;
  exports dev.vyre.policy.mixed;
  exports dev.vyre.policy.workitem;
}

/**
 * Observability: control and ring snapshot decoders, the telemetry sampler, JFR events, the
 * Micrometer binder (when Micrometer is present), the replay log, and the promotion loop that acts
 * on the DFA tables the ring shows hot.
 */
module dev.vyre.observe {
  requires transitive dev.vyre.runtime;
  requires transitive dev.vyre.policy;
  requires dev.vyre.io;
  requires jdk.jfr;
  requires static micrometer.core;

  exports dev.vyre.observe.promotion;
  exports dev.vyre.observe.replay;
  exports dev.vyre.observe.telemetry;
}

/**
 * Observability: control and ring snapshot decoders, the telemetry sampler, JFR events, the
 * Micrometer binder (when Micrometer is present), and the replay log.
 */
module dev.vyre.observe {
  requires transitive dev.vyre.runtime;
  requires transitive dev.vyre.policy;
  requires dev.vyre.io;
  requires jdk.jfr;
  requires static micrometer.core;

  exports dev.vyre.observe.replay;
  exports dev.vyre.observe.telemetry;
}

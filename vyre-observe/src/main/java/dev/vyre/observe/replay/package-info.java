/**
 * vyre's replay log and our rerun sidecar. {@link dev.vyre.observe.replay.RingLog} writes the
 * checksummed {@code VRRL0002} file and reads it and vyre's {@code VRRL0001}
 * ({@link dev.vyre.observe.replay.ReplayLogFormat}): a circular log of published slots with failure
 * evidence. {@link dev.vyre.observe.replay.RerunSidecar}
 * ({@link dev.vyre.observe.replay.RerunSidecarFormat}) keeps what a re-run on another backend needs.
 * See docs/PROTOCOL.md, "Replay log" and "Rerun sidecar".
 */
package dev.vyre.observe.replay;

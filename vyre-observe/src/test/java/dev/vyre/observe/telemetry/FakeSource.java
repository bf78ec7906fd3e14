package dev.vyre.observe.telemetry;

import static dev.vyre.observe.telemetry.Snapshots.setWord;

import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;

/** A kernel stand-in whose control block and ring a test edits between samples. */
final class FakeSource implements TelemetrySource {

  final byte[] control = Snapshots.control();
  final byte[] ring = Snapshots.ring(4);

  FakeSource() {
    setWord(control, ControlLayout.KERNEL_STATE, ControlLayout.KERNEL_STATE_RUNNING);
  }

  @Override
  public String name() {
    return "fake";
  }

  @Override
  public byte[] controlSnapshot() {
    return control.clone();
  }

  @Override
  public byte[] ringSnapshot() {
    return ring.clone();
  }

  void done(int count) {
    setWord(control, ControlLayout.DONE_COUNT, count);
  }

  void heartbeat(int value) {
    setWord(control, ControlLayout.HEARTBEAT, value);
  }

  /** Slot 0 is claimed and never finishes. */
  void stuck() {
    Snapshots.slot(ring, 0, SlotLayout.STATUS_CLAIMED, Opcodes.ATOMIC_ADD, 0);
  }

  void finish() {
    Snapshots.slot(ring, 0, SlotLayout.STATUS_DONE, Opcodes.ATOMIC_ADD, 0);
  }
}

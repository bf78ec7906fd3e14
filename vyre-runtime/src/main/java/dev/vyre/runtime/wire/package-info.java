/**
 * vyre's wire formats, byte for byte, as descriptor classes: constants for word offsets plus small
 * helpers over a {@link java.lang.foreign.MemorySegment}. {@link dev.vyre.runtime.wire.SlotLayout} and
 * {@link dev.vyre.runtime.wire.SlotStatus} describe a ring slot, {@link dev.vyre.runtime.wire.ControlLayout}
 * the control block (with our words 141..159), {@link dev.vyre.runtime.wire.Opcodes} the opcode numbers,
 * {@link dev.vyre.runtime.wire.DebugLogLayout}, {@link dev.vyre.runtime.wire.IoQueueLayout} and
 * {@link dev.vyre.runtime.wire.PackedSlotCodec} the other buffers and encodings, and
 * {@link dev.vyre.runtime.wire.RingPublisher} vyre's rules for publishing into a raw ring. All memory
 * access goes through {@link dev.vyre.runtime.wire.Words}. See docs/PROTOCOL.md, "vyre's wire
 * formats".
 */
package dev.vyre.runtime.wire;

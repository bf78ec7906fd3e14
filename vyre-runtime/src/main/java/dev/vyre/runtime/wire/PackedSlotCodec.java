package dev.vyre.runtime.wire;

import dev.vyre.driver.error.PipelineException;

/**
 * PACKED_SLOT argument encoding (vyre-runtime.md §1.8): byte 0 = op count, byte 1 = packed arg
 * words, then (opcode, arg offset) byte pairs; the packed args start at word {@code metadataWords}.
 */
public final class PackedSlotCodec {

  public static final int MAX_OPS = 255;

  private PackedSlotCodec() {}

  /** One inner operation: an 8-bit opcode and its arguments. */
  public record PackedOp(int opcode, int[] args) {}

  public static int metadataWords(int opCount) {
    return (2 + 2 * opCount + 3) / 4;
  }

  /** The 12 argument words for {@code ops}; validates everything first. */
  public static int[] encode(PackedOp... ops) {
    if (ops.length > MAX_OPS) {
      throw PipelineException.queueFull("submission", "a packed slot holds at most 255 inner opcodes",
          "split the operations over several slots");
    }
    int metadata = metadataWords(ops.length);
    if (metadata > SlotLayout.ARGS_PER_SLOT) {
      throw PipelineException.queueFull("submission", "packed slot metadata exceeds the 12-word slot argument budget",
          "pack fewer operations per slot");
    }
    int[] words = new int[SlotLayout.ARGS_PER_SLOT];
    int argWords = 0;
    byte[] meta = new byte[metadata * 4];
    meta[0] = (byte) ops.length;
    for (int i = 0; i < ops.length; i++) {
      PackedOp op = ops[i];
      if (op.opcode() < 0 || op.opcode() > 0xFF) {
        throw PipelineException.queueFull("submission", "packed opcode " + op.opcode() + " does not fit a byte",
            "pack only opcodes 0..255");
      }
      if (metadata + argWords + op.args().length > SlotLayout.ARGS_PER_SLOT) {
        throw PipelineException.queueFull("submission", "packed slot payload exceeds the 12-word slot argument budget",
            "pack fewer or shorter operations per slot");
      }
      meta[2 + 2 * i] = (byte) op.opcode();
      meta[3 + 2 * i] = (byte) argWords;
      for (int a : op.args()) {
        words[metadata + argWords++] = a;
      }
    }
    meta[1] = (byte) argWords;
    for (int w = 0; w < metadata; w++) {
      words[w] = (meta[4 * w] & 0xFF) | (meta[4 * w + 1] & 0xFF) << 8 | (meta[4 * w + 2] & 0xFF) << 16 | (meta[4 * w + 3] & 0xFF) << 24;
    }
    return words;
  }

  /** Byte {@code k} of the 48-byte argument area whose words are read through {@code args}. */
  public static int argByte(int[] args, int k) {
    return (args[k >>> 2] >>> (8 * (k & 3))) & 0xFF;
  }
}

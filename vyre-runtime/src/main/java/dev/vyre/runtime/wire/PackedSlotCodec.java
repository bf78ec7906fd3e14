package dev.vyre.runtime.wire;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * PACKED_SLOT argument encoding (docs/PROTOCOL.md, "PACKED_SLOT"): byte 0 = op count, byte 1 =
 * packed arg words, then (opcode, arg offset) byte pairs; the packed args start at word
 * {@code metadataWords}. Byte {@code k} of the 48-byte argument area lives in word {@code k / 4} at
 * bits {@code 8 (k % 4)}.
 */
public final class PackedSlotCodec {

  public static final int MAX_OPS = 255;

  private static final int ARG_BYTES = SlotLayout.ARGS_PER_SLOT * 4;

  private PackedSlotCodec() {}

  /** One inner operation: an 8-bit opcode and its arguments. */
  public record PackedOp(int opcode, int[] args) {}

  public static int metadataWords(int opCount) {
    return (2 + 2 * opCount + 3) / 4;
  }

  /** The 12 argument words for {@code ops}; validates everything first. */
  public static int[] encode(PackedOp... ops) {
    if (ops.length > MAX_OPS) {
      throw PipelineException.invalidArgument("submission", "packed slot supports at most 255 inner opcodes",
          "split the operations over several slots");
    }
    int metadata = metadataWords(ops.length);
    if (metadata > SlotLayout.ARGS_PER_SLOT) {
      throw PipelineException.invalidArgument("submission", "packed slot metadata exceeds the 12-word slot argument budget",
          "pack fewer operations per slot");
    }
    int[] words = new int[SlotLayout.ARGS_PER_SLOT];
    int argWords = 0;
    byte[] meta = new byte[metadata * 4];
    meta[0] = (byte) ops.length;
    for (int i = 0; i < ops.length; i++) {
      PackedOp op = ops[i];
      if (op.opcode() < 0 || op.opcode() > 0xFF) {
        throw PipelineException.invalidArgument("submission", "packed opcode " + Integer.toUnsignedString(op.opcode()) + " does not fit a byte",
            "pack only opcodes 0..255");
      }
      if (op.args().length > SlotLayout.ARGS_PER_SLOT - metadata - argWords) {
        throw PipelineException.invalidArgument("submission", "packed slot payload exceeds the 12-word slot argument budget",
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

  /**
   * The inverse of {@link #encode}: the operations of a packed slot's 12 argument words, each with
   * the words from its offset up to the next operation's offset (the last one's up to the packed
   * word count), as the reference interpreter reads them. Refuses metadata and arguments that do
   * not fit the 12 words and offsets that go backwards.
   */
  public static List<PackedOp> decode(int[] args) {
    if (args.length != SlotLayout.ARGS_PER_SLOT) {
      throw ProtocolException.missingWord("packed_slot", Math.min(args.length, SlotLayout.ARGS_PER_SLOT), 4L * args.length,
          "pass the 12 argument words of the slot");
    }
    int count = argByte(args, 0);
    int total = argByte(args, 1);
    int metadata = metadataWords(count);
    if (metadata + total > SlotLayout.ARGS_PER_SLOT) {
      throw malformed(args, 0, count + " packed ops need " + metadata + " metadata words and " + total
          + " argument words, more than the 12 of a slot");
    }
    List<PackedOp> ops = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int offset = argByte(args, 3 + 2 * i);
      int end = i + 1 < count ? argByte(args, 3 + 2 * (i + 1)) : total;
      if (offset > end || end > total) {
        throw malformed(args, (3 + 2 * i) / 4, "packed op " + i + " has arguments " + offset + ".." + end
            + " outside the " + total + " packed argument words or before the previous op's");
      }
      ops.add(new PackedOp(argByte(args, 2 + 2 * i), Arrays.copyOfRange(args, metadata + offset, metadata + end)));
    }
    return ops;
  }

  private static ProtocolException malformed(int[] args, int word, String problem) {
    return ProtocolException.invalidWord("packed_slot", word, Integer.toUnsignedLong(args[word]), ARG_BYTES, problem,
        "publish packed slots with PackedSlotCodec.encode");
  }

  /** Byte {@code k} (0..47) of the 48-byte argument area whose words are read through {@code args}. */
  public static int argByte(int[] args, int k) {
    return (args[k >>> 2] >>> (8 * (k & 3))) & 0xFF;
  }
}

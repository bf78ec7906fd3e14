package dev.vyre.runtime.wire;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.PipelineException;
import java.util.Locale;

/** Opcode numbers and their classification (docs/PROTOCOL.md, "Opcodes"). */
public final class Opcodes {

  public static final int NOP = 0;
  public static final int STORE_U32 = 1;
  public static final int ATOMIC_ADD = 2;
  public static final int LOAD_U32 = 3;
  public static final int COMPARE_SWAP = 4;
  public static final int MEMCPY = 5;
  public static final int DFA_STEP = 6;
  public static final int BATCH_FENCE = 7;
  public static final int LOAD_MISS = 0x0000_FFFD;
  public static final int PRINTF = 0x0000_FFFE;
  public static final int PACKED_SLOT = 0x8000_0001;
  public static final int SHUTDOWN = 0xFFFF_FFFF;

  public static final int SYSTEM_MASK = 0x8000_0000;
  public static final int RESERVED_MAX_RANGE_MIN = 0x0000_FFF0;
  /** Opcodes below this have a metrics counter (control words 96..127). */
  public static final int METERED_OPCODES = 32;

  private Opcodes() {}

  public static boolean isSystem(int op) {
    return (op & SYSTEM_MASK) != 0 || (op >= RESERVED_MAX_RANGE_MIN && op <= 0xFFFF) || (op >= 0 && op <= BATCH_FENCE);
  }

  public static boolean isBuiltin(int op) {
    return (op >= 0 && op <= BATCH_FENCE) || op == PACKED_SLOT || op == PRINTF || op == SHUTDOWN;
  }

  /** User opcodes are 8..0xFFEF and 0x10000..0x7FFFFFFF. */
  public static void validateUserOpcode(int op) {
    if (isSystem(op)) {
      throw PipelineException.invalidArgument("submission",
          "User opcode overlaps with reserved system range or uses the high bit (opcode 0x" + Integer.toHexString(op) + ")",
          "use a user opcode in 8..0xFFEF or 0x10000..0x7FFFFFFF");
    }
  }

  public static void validatePublishOpcode(int op) {
    if (!isBuiltin(op)) {
      validateUserOpcode(op);
    }
  }

  /** The built-in's name, or {@code 0x...} for other opcodes. */
  public static String name(int op) {
    return switch (op) {
      case NOP -> "NOP";
      case STORE_U32 -> "STORE_U32";
      case ATOMIC_ADD -> "ATOMIC_ADD";
      case LOAD_U32 -> "LOAD_U32";
      case COMPARE_SWAP -> "COMPARE_SWAP";
      case MEMCPY -> "MEMCPY";
      case DFA_STEP -> "DFA_STEP";
      case BATCH_FENCE -> "BATCH_FENCE";
      case LOAD_MISS -> "LOAD_MISS";
      case PRINTF -> "PRINTF";
      case PACKED_SLOT -> "PACKED_SLOT";
      case SHUTDOWN -> "SHUTDOWN";
      default -> "0x" + Integer.toHexString(op);
    };
  }

  /** The opcode for a built-in name (case-insensitive), or a number in decimal or 0x hex; null if neither. */
  public static Integer parse(String text) {
    String upper = text.toUpperCase(Locale.ROOT);
    for (int op : new int[] {NOP, STORE_U32, ATOMIC_ADD, LOAD_U32, COMPARE_SWAP, MEMCPY, DFA_STEP, BATCH_FENCE, LOAD_MISS, PRINTF, PACKED_SLOT, SHUTDOWN}) {
      if (name(op).equals(upper)) {
        return op;
      }
    }
    long value = Unsigned.parseU32(text);
    return value < 0 ? null : (int) value;
  }
}

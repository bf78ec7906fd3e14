package dev.vyre.cuda.wire;

import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.dfa.DfaTableLayout;
import dev.vyre.runtime.dfa.HitBufferLayout;
import dev.vyre.runtime.dfa.MatchCountLayout;
import dev.vyre.runtime.dfa.PromotedDfaLayout;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import dev.vyre.runtime.wire.WaveGateLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The kernel's constants block, generated from the Java wire descriptors when the kernel is
 * assembled, so that the host and the kernel cannot disagree on a layout, status, opcode or fault
 * code: the kernel's .cu files define none of these names themselves.
 *
 * <p>Every public static final int or long field of each {@link Mirror} class becomes one
 * {@code #define}, named {@code prefix + FIELD} unless the mirror names it otherwise (names the
 * kernel has always used). An enum contributes its constants' wire codes. C types follow the Java
 * ones: an int is an {@code unsigned} literal ({@code 16u}, {@code 0x80000000u}), except where the
 * kernel wants a signed {@code int} (fault reasons, which it negates); a long is an
 * {@code unsigned long long} ({@code 268435455ull}, a single high bit as {@code (1ull << 63)}).
 */
public final class WireDefines {

  /** How a mirror's int constants are written in C. */
  public enum Style { UNSIGNED, SIGNED }

  /**
   * One descriptor class mirrored into the kernel.
   *
   * @param names macro names that differ from {@code prefix + FIELD}
   * @param hex fields written in hexadecimal (masks, magic numbers, reserved ranges)
   */
  public record Mirror(Class<?> owner, String prefix, Map<String, String> names, Set<String> hex, Style style) {

    Mirror(Class<?> owner, String prefix) {
      this(owner, prefix, Map.of(), Set.of(), Style.UNSIGNED);
    }

    Mirror(Class<?> owner, String prefix, Map<String, String> names) {
      this(owner, prefix, names, Set.of(), Style.UNSIGNED);
    }

    /** The macro that mirrors constant {@code field}. */
    public String macro(String field) {
      return names.getOrDefault(field, prefix + field);
    }
  }

  /** One generated macro: where it comes from and its C text. */
  public record Define(String name, String value, Class<?> owner, String field, long javaValue) {

    String line() {
      return "#define " + name + " " + value;
    }
  }

  /** What the kernel mirrors, in the order the block lists it. */
  public static final List<Mirror> MIRRORS = List.of(
      new Mirror(SlotLayout.class, "VYRE_", Map.of("STATUS_WORD", "VYRE_SLOT_STATUS_WORD", "OPCODE_WORD", "VYRE_SLOT_OPCODE_WORD",
          "TENANT_WORD", "VYRE_SLOT_TENANT_WORD", "PRIORITY_WORD", "VYRE_SLOT_PRIORITY_WORD", "ARG0_WORD", "VYRE_SLOT_ARG0_WORD")),
      // The same statuses as SlotLayout's: the block holds each once, and refuses two values.
      new Mirror(SlotStatus.class, "VYRE_STATUS_"),
      new Mirror(IoQueueLayout.class, "VYRE_IO_", Map.of("IO_SLOT_COUNT", "VYRE_IO_SLOTS", "STATUS", "VYRE_IO_STATUS_WORD",
          "STATUS_OK", "VYRE_IO_OK", "STATUS_ERROR", "VYRE_IO_ERROR"), Set.of("STATUS_OK", "STATUS_ERROR"), Style.UNSIGNED),
      new Mirror(ControlLayout.class, "VYRE_CTL_", Map.of("MAX_TENANTS", "VYRE_MAX_TENANTS", "PRIORITY_LEVELS", "VYRE_PRIORITY_LEVELS",
          "STARVATION_THRESHOLD", "VYRE_STARVATION_THRESHOLD", "KERNEL_STATE_RUNNING", "VYRE_KERNEL_STATE_RUNNING",
          "KERNEL_STATE_EXITED", "VYRE_KERNEL_STATE_EXITED", "CONTROL_MIN_WORDS", "VYRE_CTL_MIN_WORDS")),
      new Mirror(Opcodes.class, "VYRE_OP_", Map.of("METERED_OPCODES", "VYRE_METERED_OPCODES"),
          Set.of("LOAD_MISS", "PRINTF", "RESERVED_MAX_RANGE_MIN"), Style.UNSIGNED),
      new Mirror(DebugLogLayout.class, "VYRE_DEBUG_"),
      new Mirror(ExpressLayout.class, "VYRE_EXPRESS_", Map.of("LINES_PER_SLOT", "VYRE_EXPRESS_LINES")),
      new Mirror(FaultReason.class, "VYRE_FAULT_", Map.of("CONTROL_INDEX_OUT_OF_RANGE", "VYRE_FAULT_CONTROL_INDEX",
          "TENANT_UNAUTHORIZED", "VYRE_FAULT_TENANT", "RESOURCE_OUT_OF_RANGE", "VYRE_FAULT_RESOURCE", "HANDLER_FAILED",
          "VYRE_FAULT_HANDLER", "MALFORMED_TABLE", "VYRE_FAULT_TABLE", "MALFORMED_PACKED_SLOT", "VYRE_FAULT_PACKED"), Set.of(),
          Style.SIGNED),
      new Mirror(WaveGateLayout.class, "VYRE_WAVE_", Map.of(), Set.of("FAILED", "MAX_LAYER_TASKS"), Style.UNSIGNED),
      new Mirror(DfaTableLayout.class, "VYRE_DFA_", Map.of(), Set.of("MAGIC", "ROW_MASK"), Style.UNSIGNED),
      new Mirror(DfaStepArgs.class, "VYRE_DFA_STEP_"),
      new Mirror(HitBufferLayout.class, "VYRE_HIT_"),
      new Mirror(MatchCountLayout.class, "VYRE_MATCH_COUNT_"),
      new Mirror(PromotedDfaLayout.class, "VYRE_PROMOTED_DFA_", Map.of(), Set.of("MAGIC", "ACCEPT_FLAG", "STATE_MASK"),
          Style.UNSIGNED),
      new Mirror(ResourceTableLayout.class, "VYRE_RESOURCE_"),
      new Mirror(KernelArgsLayout.class, "VYRE_KERNEL_ARGS_"),
      new Mirror(DeviceStateLayout.class, "VYRE_DEVICE_STATE_"),
      new Mirror(PromotedCopyLayout.class, "VYRE_PROMOTED_COPY_"),
      new Mirror(TraceLayout.class, "VYRE_TRACE_"));

  private static final List<Define> DEFINES = generate(MIRRORS);
  private static final String BLOCK = render();

  private WireDefines() {}

  /** Every generated macro, each name once. */
  public static List<Define> defines() {
    return DEFINES;
  }

  /** The {@code #define} block that opens the assembled kernel. */
  public static String block() {
    return BLOCK;
  }

  /** The defines of {@code mirrors}, each name once; refuses one name with two values. */
  static List<Define> generate(List<Mirror> mirrors) {
    Map<String, Define> byName = new LinkedHashMap<>();
    for (Mirror mirror : mirrors) {
      for (Define define : mirror(mirror)) {
        Define earlier = byName.putIfAbsent(define.name(), define);
        if (earlier != null && !earlier.value().equals(define.value())) {
          throw new IllegalStateException(define.name() + " is " + earlier.value() + " from " + earlier.owner().getSimpleName() + "."
              + earlier.field() + " but " + define.value() + " from " + define.owner().getSimpleName() + "." + define.field());
        }
      }
    }
    return List.copyOf(byName.values());
  }

  /** The defines of one descriptor, in declaration order. */
  static List<Define> mirror(Mirror mirror) {
    List<Define> defines = new ArrayList<>();
    Class<?> owner = mirror.owner();
    if (owner.isEnum()) {
      for (Object constant : owner.getEnumConstants()) {
        String name = ((Enum<?>) constant).name();
        int code = code(constant);
        if (code >= 0) {  // a negative code marks a decoding result (SlotStatus.UNKNOWN), never a wire value
          defines.add(new Define(mirror.macro(name), intText(code, mirror, name), owner, name, code));
        }
      }
      return defines;
    }
    for (Field field : owner.getDeclaredFields()) {
      int modifiers = field.getModifiers();
      if (!Modifier.isPublic(modifiers) || !Modifier.isStatic(modifiers) || !Modifier.isFinal(modifiers)) {
        continue;
      }
      String name = field.getName();
      try {
        if (field.getType() == int.class) {
          int value = field.getInt(null);
          defines.add(new Define(mirror.macro(name), intText(value, mirror, name), owner, name, value));
        } else if (field.getType() == long.class) {
          long value = field.getLong(null);
          defines.add(new Define(mirror.macro(name), longText(value), owner, name, value));
        }
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(owner.getName() + "." + name, e);
      }
    }
    return defines;
  }

  private static int code(Object constant) {
    try {
      return (int) constant.getClass().getMethod("code").invoke(constant);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(constant.getClass().getName() + " has no int code()", e);
    }
  }

  private static String intText(int value, Mirror mirror, String field) {
    if (mirror.style() == Style.SIGNED) {
      return Integer.toString(value);
    }
    return (value < 0 || mirror.hex().contains(field) ? "0x" + Integer.toHexString(value).toUpperCase() : Integer.toString(value)) + "u";
  }

  private static String longText(long value) {
    if (Long.bitCount(value) == 1 && Long.numberOfTrailingZeros(value) >= 31) {
      return "(1ull << " + Long.numberOfTrailingZeros(value) + ")";
    }
    return Long.toUnsignedString(value) + "ull";
  }

  private static String render() {
    StringBuilder block = new StringBuilder();
    block.append("// Wire constants, generated from the Java descriptors by dev.vyre.cuda.wire.WireDefines when the kernel\n")
        .append("// is assembled: change them there. No .cu file may define these names.\n");
    Class<?> owner = null;
    for (Define define : DEFINES) {
      if (define.owner() != owner) {
        owner = define.owner();
        block.append("\n// ").append(owner.getName()).append('\n');
      }
      block.append(define.line()).append('\n');
    }
    return block.toString();
  }
}

package dev.vyre.runtime.program;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.PackedSlotCodec;
import dev.vyre.runtime.wire.SlotLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text form of a slot program, one task per line, so a person can try the megakernel:
 *
 * <pre>
 * # comments start with '#'
 * ATOMIC_ADD 5 160                         # opcode by name, then up to 12 args
 * tenant=2 priority=HIGH STORE_U32 7 161   # optional tenant= and priority= first
 * 0x100 1 2 3                              # a user opcode by number
 * PACKED_SLOT STORE_U32(10,170) ATOMIC_ADD(5,170)
 * </pre>
 *
 * Numbers are decimal or {@code 0x} hex, u32. A bad line is an {@link InputException} naming the
 * line and how to fix it.
 */
public final class SlotProgram {

  private SlotProgram() {}

  /** Parses {@code text}; {@code source} names it in errors (a file name). */
  public static List<Task> parse(String source, String text) {
    List<Task> tasks = new ArrayList<>();
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      String body = (hash >= 0 ? line.substring(0, hash) : line).strip();
      if (!body.isEmpty()) {
        tasks.add(parseLine(source, i + 1, body));
      }
    }
    return tasks;
  }

  private static Task parseLine(String source, int line, String body) {
    String[] tokens = body.split("\\s+");
    int tenant = 0;
    Priority priority = Priority.NORMAL;
    int at = 0;
    for (; at < tokens.length && tokens[at].contains("="); at++) {
      String[] pair = tokens[at].split("=", 2);
      switch (pair[0].toLowerCase(Locale.ROOT)) {
        case "tenant" -> {
          long value = number(source, line, pair[1], "tenant");
          if (value >= ControlLayout.MAX_TENANTS) {
            throw InputException.at(source, line, "tenant " + value + " is outside 0..28", "use a tenant id below 29");
          }
          tenant = (int) value;
        }
        case "priority" -> priority = priority(source, line, pair[1]);
        default -> throw InputException.at(source, line, "unknown setting " + quoted(pair[0]),
            "use tenant=N or priority=CRITICAL|HIGH|NORMAL|LOW|IDLE before the opcode");
      }
    }
    if (at == tokens.length) {
      throw InputException.at(source, line, "no opcode after the settings", "write an opcode such as NOP or ATOMIC_ADD 1 160");
    }
    Integer opcode = Opcodes.parse(tokens[at]);
    if (opcode == null) {
      throw InputException.at(source, line, "unknown opcode " + quoted(tokens[at]),
          "use a built-in name (NOP, STORE_U32, ATOMIC_ADD, LOAD_U32, COMPARE_SWAP, MEMCPY, DFA_STEP, BATCH_FENCE, PRINTF, SHUTDOWN, PACKED_SLOT) or a number");
    }
    int[] args;
    try {
      Opcodes.validatePublishOpcode(opcode);
      args = opcode == Opcodes.PACKED_SLOT ? packedArgs(source, line, tokens, at + 1) : plainArgs(source, line, tokens, at + 1);
    } catch (InputException e) {
      throw e;
    } catch (VyreException e) {
      throw InputException.at(source, line, e.getMessage().replaceFirst("\\. Fix: .*$", ""), fixOf(e));
    }
    return new Task(tenant, priority, opcode, args);
  }

  private static String fixOf(VyreException e) {
    int fix = e.getMessage().indexOf("Fix: ");
    return fix >= 0 ? e.getMessage().substring(fix + 5).replaceFirst("\\.$", "") : "check the line";
  }

  private static int[] plainArgs(String source, int line, String[] tokens, int from) {
    int count = tokens.length - from;
    if (count > SlotLayout.ARGS_PER_SLOT) {
      throw InputException.at(source, line, count + " arguments, but a slot holds 12", "pass at most 12 arguments");
    }
    int[] args = new int[count];
    for (int i = 0; i < count; i++) {
      args[i] = (int) number(source, line, tokens[from + i], "argument " + i);
    }
    return args;
  }

  private static int[] packedArgs(String source, int line, String[] tokens, int from) {
    List<PackedSlotCodec.PackedOp> ops = new ArrayList<>();
    for (int i = from; i < tokens.length; i++) {
      String token = tokens[i];
      int open = token.indexOf('(');
      if (open < 0 || !token.endsWith(")")) {
        throw InputException.at(source, line, "packed op " + quoted(token) + " is not NAME(arg,...)", "write packed ops as STORE_U32(10,170) with no spaces");
      }
      Integer op = Opcodes.parse(token.substring(0, open));
      if (op == null || Integer.compareUnsigned(op, 0xFF) > 0) {
        throw InputException.at(source, line, "packed opcode " + quoted(token.substring(0, open)) + " does not fit a byte", "pack only opcodes 0..255");
      }
      String inner = token.substring(open + 1, token.length() - 1);
      String[] parts = inner.isEmpty() ? new String[0] : inner.split(",", -1);
      int[] args = new int[parts.length];
      for (int a = 0; a < parts.length; a++) {
        args[a] = (int) number(source, line, parts[a], "packed argument");
      }
      ops.add(new PackedSlotCodec.PackedOp(op, args));
    }
    return PackedSlotCodec.encode(ops.toArray(PackedSlotCodec.PackedOp[]::new));
  }

  private static Priority priority(String source, int line, String text) {
    try {
      return Priority.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw InputException.at(source, line, "unknown priority " + quoted(text), "use CRITICAL, HIGH, NORMAL, LOW or IDLE");
    }
  }

  /** A token for a message, cut short: a one-line file of megabytes must not come back whole on stderr. */
  private static String quoted(String token) {
    return token.length() <= 64 ? "\"" + token + "\"" : "\"" + token.substring(0, 40) + "...\" (" + token.length() + " characters)";
  }

  private static long number(String source, int line, String text, String what) {
    long value = Unsigned.parseU32(text);
    if (value < 0) {
      throw InputException.at(source, line, what + " " + quoted(text) + " is not a u32", "write a number in 0..4294967295 (decimal or 0x hex)");
    }
    return value;
  }
}

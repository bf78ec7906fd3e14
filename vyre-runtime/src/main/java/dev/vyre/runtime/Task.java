package dev.vyre.runtime;

import dev.vyre.runtime.wire.SlotLayout;
import java.util.Arrays;

/**
 * One task for the megakernel: tenant, priority, opcode and up to 12 argument words.
 * The convenience API; {@link TaskBatch} is the allocation-free path.
 */
public record Task(int tenant, Priority priority, int opcode, int[] args) {

  public Task {
    SlotLayout.checkArgCount(args.length);
    args = args.clone();
  }

  public static Task of(int opcode, int... args) {
    return new Task(0, Priority.NORMAL, opcode, args);
  }

  public Task withTenant(int tenantId) {
    return new Task(tenantId, priority, opcode, args);
  }

  public Task withPriority(Priority level) {
    return new Task(tenant, level, opcode, args);
  }

  @Override
  public int[] args() {
    return args.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Task t && t.tenant == tenant && t.priority == priority && t.opcode == opcode && Arrays.equals(t.args, args);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * (31 * tenant + priority.hashCode()) + opcode) + Arrays.hashCode(args);
  }

  @Override
  public String toString() {
    return "Task[tenant=" + tenant + ", priority=" + priority + ", opcode=" + dev.vyre.runtime.wire.Opcodes.name(opcode)
        + ", args=" + Arrays.toString(args) + "]";
  }

  int[] argsUnsafe() {
    return args;
  }
}

package dev.vyre.runtime;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.SlotLayout;

/**
 * A reusable, caller-owned batch of tasks for one priority level. Publishing a batch takes
 * contiguous slots, writes them, and rings the doorbell once. Filling and publishing allocate
 * nothing, so a publisher thread can reuse one batch forever.
 */
public final class TaskBatch {

  private final int capacity;
  private final int[] tenants;
  private final int[] opcodes;
  private final int[] argCounts;
  private final int[] args;
  private Priority priority = Priority.NORMAL;
  private int size;

  public TaskBatch(int capacity) {
    if (capacity < 1) {
      throw PipelineException.queueFull("submission", "batch capacity " + capacity + " is below 1", "create a batch of at least one task");
    }
    this.capacity = capacity;
    this.tenants = new int[capacity];
    this.opcodes = new int[capacity];
    this.argCounts = new int[capacity];
    this.args = new int[capacity * SlotLayout.ARGS_PER_SLOT];
  }

  public TaskBatch priority(Priority level) {
    this.priority = level;
    return this;
  }

  public Priority priority() {
    return priority;
  }

  /** Appends a task; returns this batch. */
  public TaskBatch add(int tenant, int opcode, int... taskArgs) {
    if (size == capacity) {
      throw PipelineException.queueFull("submission", "batch is full at " + capacity + " tasks", "publish the batch, clear() it, and continue");
    }
    SlotLayout.checkArgCount(taskArgs.length);
    tenants[size] = tenant;
    opcodes[size] = opcode;
    argCounts[size] = taskArgs.length;
    System.arraycopy(taskArgs, 0, args, size * SlotLayout.ARGS_PER_SLOT, taskArgs.length);
    size++;
    return this;
  }

  /** Allocation-free append for up to three arguments. */
  public TaskBatch add3(int tenant, int opcode, int arg0, int arg1, int arg2) {
    if (size == capacity) {
      throw PipelineException.queueFull("submission", "batch is full at " + capacity + " tasks", "publish the batch, clear() it, and continue");
    }
    int base = size * SlotLayout.ARGS_PER_SLOT;
    tenants[size] = tenant;
    opcodes[size] = opcode;
    argCounts[size] = 3;
    args[base] = arg0;
    args[base + 1] = arg1;
    args[base + 2] = arg2;
    size++;
    return this;
  }

  public TaskBatch clear() {
    size = 0;
    return this;
  }

  public int size() {
    return size;
  }

  public int capacity() {
    return capacity;
  }

  int tenant(int i) {
    return tenants[i];
  }

  int opcode(int i) {
    return opcodes[i];
  }

  int argCount(int i) {
    return argCounts[i];
  }

  int[] argWords() {
    return args;
  }
}

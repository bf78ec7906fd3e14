package dev.vyre.runtime;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.RingPublisher;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.WaveGateLayout;
import java.util.Arrays;
import java.util.Objects;

/**
 * A reusable, caller-owned batch of tasks for one priority level. Tasks are validated as they are
 * added and kept in the ring's own slot layout (status PUBLISHED, opcode, tenant, priority, twelve
 * arguments), so publishing copies them into contiguous slots in bulk and rings the doorbell once.
 * Filling and publishing allocate nothing, so a publisher thread can reuse one batch forever.
 */
public final class TaskBatch {

  private final int capacity;
  /** {@code capacity} slots of {@link SlotLayout#SLOT_WORDS} words, priority word included. */
  private final int[] slotWords;
  private Priority priority = Priority.NORMAL;
  private int size;

  public TaskBatch(int capacity) {
    if (capacity < 1) {
      throw PipelineException.invalidArgument("submission", "batch capacity " + capacity + " is below 1", "create a batch of at least one task");
    }
    this.capacity = capacity;
    this.slotWords = new int[Math.multiplyExact(capacity, SlotLayout.SLOT_WORDS)];
  }

  /** The level the batch publishes at; tasks already added move with it (wave tasks keep their gates). */
  public TaskBatch priority(Priority level) {
    this.priority = level;
    for (int i = 0; i < size; i++) {
      int word = i * SlotLayout.SLOT_WORDS + SlotLayout.PRIORITY_WORD;
      slotWords[word] = slotWords[word] & ~WaveGateLayout.LEVEL_MASK | level.level();
    }
    return this;
  }

  public Priority priority() {
    return priority;
  }

  /**
   * Appends a task; returns this batch.
   *
   * @throws PipelineException when the batch is full, or the tenant, opcode or argument count is
   *     one a publisher refuses (the batch is unchanged)
   */
  public TaskBatch add(int tenant, int opcode, int... taskArgs) {
    int base = begin(tenant, opcode, taskArgs.length);
    System.arraycopy(taskArgs, 0, slotWords, base + SlotLayout.ARG0_WORD, taskArgs.length);
    Arrays.fill(slotWords, base + SlotLayout.ARG0_WORD + taskArgs.length, base + SlotLayout.SLOT_WORDS, 0);
    size++;
    return this;
  }

  /** Allocation-free append for up to three arguments. */
  public TaskBatch add3(int tenant, int opcode, int arg0, int arg1, int arg2) {
    int base = begin(tenant, opcode, 3);
    slotWords[base + SlotLayout.ARG0_WORD] = arg0;
    slotWords[base + SlotLayout.ARG0_WORD + 1] = arg1;
    slotWords[base + SlotLayout.ARG0_WORD + 2] = arg2;
    Arrays.fill(slotWords, base + SlotLayout.ARG0_WORD + 3, base + SlotLayout.SLOT_WORDS, 0);
    size++;
    return this;
  }

  /**
   * Appends a task of a wave DAG: {@code taskArgs[from .. from + count)} as its arguments and
   * {@code gate} ({@link WaveGateLayout#gate}: its gate table and layer) in its priority word
   * beside the level, so that the kernel runs it only once the layer before it has finished
   * (docs/WAVES.md). {@code dev.vyre.runtime.wave} writes these; a gate made by hand must name a
   * table laid out as {@link WaveGateLayout} says, or the task faults.
   *
   * @throws PipelineException as {@link #add}, or when {@code gate} is not a gate without a level
   */
  public TaskBatch addGated(int gate, int tenant, int opcode, int[] taskArgs, int from, int count) {
    if (!WaveGateLayout.isGated(gate) || (gate & WaveGateLayout.LEVEL_MASK) != 0) {
      throw PipelineException.invalidArgument("wave gate", "0x" + Integer.toHexString(gate) + " is not a wave gate",
          "make the gate with WaveGateLayout.gate(handle, layer)");
    }
    Objects.checkFromIndexSize(from, count, taskArgs.length);
    int base = begin(tenant, opcode, count);
    System.arraycopy(taskArgs, from, slotWords, base + SlotLayout.ARG0_WORD, count);
    Arrays.fill(slotWords, base + SlotLayout.ARG0_WORD + count, base + SlotLayout.SLOT_WORDS, 0);
    slotWords[base + SlotLayout.PRIORITY_WORD] |= gate;
    size++;
    return this;
  }

  /** Checks a task as every publisher does and writes its header words; returns its first word. */
  private int begin(int tenant, int opcode, int argCount) {
    if (size == capacity) {
      // QueueFull, not InvalidArgument: the same add succeeds once the batch is published and cleared.
      throw PipelineException.queueFull("submission", "batch is full at " + capacity + " tasks", "publish the batch, clear() it, and continue");
    }
    RingPublisher.checkPayload(tenant, opcode, argCount);
    int base = size * SlotLayout.SLOT_WORDS;
    slotWords[base + SlotLayout.STATUS_WORD] = SlotLayout.STATUS_PUBLISHED;
    slotWords[base + SlotLayout.OPCODE_WORD] = opcode;
    slotWords[base + SlotLayout.TENANT_WORD] = tenant;
    slotWords[base + SlotLayout.PRIORITY_WORD] = priority.level();
    return base;
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

  /** Task {@code index}'s tenant word. */
  public int tenant(int index) {
    return slotWords[Objects.checkIndex(index, size) * SlotLayout.SLOT_WORDS + SlotLayout.TENANT_WORD];
  }

  /** Task {@code index}'s opcode. */
  public int opcode(int index) {
    return slotWords[Objects.checkIndex(index, size) * SlotLayout.SLOT_WORDS + SlotLayout.OPCODE_WORD];
  }

  /** The tasks' slot words, ready to copy into the ring; valid up to {@link #size()} slots. */
  int[] slotWords() {
    return slotWords;
  }
}

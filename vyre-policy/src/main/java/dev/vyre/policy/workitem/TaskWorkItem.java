package dev.vyre.policy.workitem;

import static dev.vyre.policy.workitem.TaskLayout.AGE_TICKS_WORD;
import static dev.vyre.policy.workitem.TaskLayout.CONTINUATION_DATA_WORD;
import static dev.vyre.policy.workitem.TaskLayout.CONTINUATION_PC_WORD;
import static dev.vyre.policy.workitem.TaskLayout.FLAGS_WORD;
import static dev.vyre.policy.workitem.TaskLayout.FLAG_PAUSED;
import static dev.vyre.policy.workitem.TaskLayout.FLAG_REQUEUE_REQUESTED;
import static dev.vyre.policy.workitem.TaskLayout.FLAG_RESUME_READY;
import static dev.vyre.policy.workitem.TaskLayout.FLAG_YIELDED;
import static dev.vyre.policy.workitem.TaskLayout.INPUT_HANDLE_WORD;
import static dev.vyre.policy.workitem.TaskLayout.OP_HANDLE_WORD;
import static dev.vyre.policy.workitem.TaskLayout.OUTPUT_HANDLE_WORD;
import static dev.vyre.policy.workitem.TaskLayout.PARAM_WORD;
import static dev.vyre.policy.workitem.TaskLayout.PARENT_TASK_ID_WORD;
import static dev.vyre.policy.workitem.TaskLayout.PRIORITY_WORD;
import static dev.vyre.policy.workitem.TaskLayout.REQUEUE_COUNT_WORD;
import static dev.vyre.policy.workitem.TaskLayout.RESUME_EPOCH_WORD;
import static dev.vyre.policy.workitem.TaskLayout.STATE_WORD;
import static dev.vyre.policy.workitem.TaskLayout.TASK_ID_WORD;
import static dev.vyre.policy.workitem.TaskLayout.TASK_WORDS;
import static dev.vyre.policy.workitem.TaskLayout.TENANT_WORD;
import static dev.vyre.policy.workitem.TaskLayout.YIELD_COUNT_WORD;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.wire.RingPublisher.WorkItem;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * One continuation task item (vyre's {@code TaskWorkItem}, docs/PORTS.md, "Continuation tasks"): a
 * work item with the state a worker needs to pause, yield, requeue and resume it. Components are in
 * wire order ({@link TaskLayout}); the int ones are u32 bit patterns. The transitions return a new
 * item and refuse to rewrite a task that is Empty, Done or Faulted.
 *
 * @param state lifecycle state
 * @param opHandle op id the task runs
 * @param tenantId tenant the scheduler checks
 * @param priority priority partition
 * @param inputHandle input-buffer handle
 * @param outputHandle output-buffer handle
 * @param param per-item parameter
 * @param continuationPc where the worker resumes
 * @param continuationData continuation scratch, or the fault code of a Faulted task
 * @param resumeEpoch device epoch at which a paused task may resume
 * @param taskId stable id joining a task's continuations
 * @param parentTaskId task this one was split from; 0 for none
 * @param ageTicks scheduler ticks spent waiting (one per requeue)
 * @param requeueCount times requeued
 * @param yieldCount times yielded
 * @param flags {@code TaskLayout.FLAG_*} bits
 */
public record TaskWorkItem(
    TaskState state, int opHandle, int tenantId, TaskPriority priority, int inputHandle, int outputHandle, int param,
    int continuationPc, int continuationData, int resumeEpoch, int taskId, int parentTaskId, int ageTicks,
    int requeueCount, int yieldCount, int flags) {

  public TaskWorkItem {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(priority, "priority");
  }

  /** A Ready task carrying {@code item}'s payload, with no continuation, counters or flags. */
  public static TaskWorkItem fromWorkItem(int taskId, int tenantId, TaskPriority priority, WorkItem item) {
    return new TaskWorkItem(TaskState.Ready, item.opHandle(), tenantId, priority, item.inputHandle(),
        item.outputHandle(), item.param(), 0, 0, 0, taskId, 0, 0, 0, 0, 0);
  }

  /** The work-item payload this task carries. */
  public WorkItem workItem() {
    return new WorkItem(opHandle, inputHandle, outputHandle, param);
  }

  /** Whether a worker may claim the task now. */
  public boolean schedulable() {
    return state.schedulable();
  }

  /** Paused at {@code pc} until {@code resumeEpoch}: sets PAUSED and clears RESUME_READY. */
  public TaskWorkItem paused(int pc, int data, int resumeEpoch) {
    requireTransitionable("pause");
    int[] words = toWords();
    words[STATE_WORD] = TaskState.Paused.word();
    words[CONTINUATION_PC_WORD] = pc;
    words[CONTINUATION_DATA_WORD] = data;
    words[RESUME_EPOCH_WORD] = resumeEpoch;
    words[FLAGS_WORD] = (flags | FLAG_PAUSED) & ~FLAG_RESUME_READY;
    return fromWords(words);
  }

  /** A paused task made Ready again: sets RESUME_READY and clears PAUSED and YIELDED. Only from Paused. */
  public TaskWorkItem resumed() {
    if (state != TaskState.Paused) {
      throw invalidTransition("resume");
    }
    int[] words = toWords();
    words[STATE_WORD] = TaskState.Ready.word();
    words[FLAGS_WORD] = (flags | FLAG_RESUME_READY) & ~(FLAG_PAUSED | FLAG_YIELDED);
    return fromWords(words);
  }

  /** Yielded back to the scheduler at {@code pc}: counts the yield and sets YIELDED. */
  public TaskWorkItem yielded(int pc, int data) {
    requireTransitionable("yield");
    int[] words = toWords();
    words[STATE_WORD] = TaskState.Yielded.word();
    words[CONTINUATION_PC_WORD] = pc;
    words[CONTINUATION_DATA_WORD] = data;
    words[YIELD_COUNT_WORD] = increment(yieldCount, "yield_count");
    words[FLAGS_WORD] = flags | FLAG_YIELDED;
    return fromWords(words);
  }

  /**
   * Requeued at {@code pc} into partition {@code newPriority}: counts the requeue, ages the task one
   * tick and sets REQUEUE_REQUESTED.
   */
  public TaskWorkItem requeued(int pc, int data, TaskPriority newPriority) {
    requireTransitionable("requeue");
    int[] words = toWords();
    words[STATE_WORD] = TaskState.Requeued.word();
    words[PRIORITY_WORD] = newPriority.word();
    words[CONTINUATION_PC_WORD] = pc;
    words[CONTINUATION_DATA_WORD] = data;
    words[REQUEUE_COUNT_WORD] = increment(requeueCount, "requeue_count");
    words[AGE_TICKS_WORD] = increment(ageTicks, "age_ticks");
    words[FLAGS_WORD] = flags | FLAG_REQUEUE_REQUESTED;
    return fromWords(words);
  }

  /** Done, with every flag cleared. */
  public TaskWorkItem completed() {
    requireTransitionable("complete");
    int[] words = toWords();
    words[STATE_WORD] = TaskState.Done.word();
    words[FLAGS_WORD] = 0;
    return fromWords(words);
  }

  /** Faulted, with the fault code in the continuation data. */
  public TaskWorkItem faulted(int code) {
    requireTransitionable("fault");
    int[] words = toWords();
    words[STATE_WORD] = TaskState.Faulted.word();
    words[CONTINUATION_DATA_WORD] = code;
    return fromWords(words);
  }

  /** The 16 wire words. */
  public int[] toWords() {
    int[] words = new int[TASK_WORDS];
    words[STATE_WORD] = state.word();
    words[OP_HANDLE_WORD] = opHandle;
    words[TENANT_WORD] = tenantId;
    words[PRIORITY_WORD] = priority.word();
    words[INPUT_HANDLE_WORD] = inputHandle;
    words[OUTPUT_HANDLE_WORD] = outputHandle;
    words[PARAM_WORD] = param;
    words[CONTINUATION_PC_WORD] = continuationPc;
    words[CONTINUATION_DATA_WORD] = continuationData;
    words[RESUME_EPOCH_WORD] = resumeEpoch;
    words[TASK_ID_WORD] = taskId;
    words[PARENT_TASK_ID_WORD] = parentTaskId;
    words[AGE_TICKS_WORD] = ageTicks;
    words[REQUEUE_COUNT_WORD] = requeueCount;
    words[YIELD_COUNT_WORD] = yieldCount;
    words[FLAGS_WORD] = flags;
    return words;
  }

  /**
   * The task that 16 wire words encode.
   *
   * @throws InputException unless there are exactly 16 words
   * @throws BackendException for an unknown state or priority word
   */
  public static TaskWorkItem fromWords(int[] words) {
    if (words.length != TASK_WORDS) {
      throw InputException.of("task item", words.length + " words are not one 16-word task item",
          "pass exactly TaskLayout.TASK_WORDS words");
    }
    return new TaskWorkItem(TaskState.ofWord(words[STATE_WORD]), words[OP_HANDLE_WORD], words[TENANT_WORD],
        TaskPriority.ofWord(words[PRIORITY_WORD]), words[INPUT_HANDLE_WORD], words[OUTPUT_HANDLE_WORD],
        words[PARAM_WORD], words[CONTINUATION_PC_WORD], words[CONTINUATION_DATA_WORD], words[RESUME_EPOCH_WORD],
        words[TASK_ID_WORD], words[PARENT_TASK_ID_WORD], words[AGE_TICKS_WORD], words[REQUEUE_COUNT_WORD],
        words[YIELD_COUNT_WORD], words[FLAGS_WORD]);
  }

  /**
   * Writes this task into slot {@code task} of {@code ring}. The state word goes last with release
   * semantics, as a ring publisher stores the status: a worker that reads the state with acquire
   * sees the whole item.
   *
   * @throws dev.vyre.driver.error.ProtocolException when the slot is outside the ring
   */
  public void writeTo(MemorySegment ring, long task) {
    TaskLayout.checkTask(ring, task);
    int[] words = toWords();
    Words.copy(words, STATE_WORD + 1, ring, TaskLayout.word(task, STATE_WORD + 1), TASK_WORDS - 1);
    Words.setRelease(ring, TaskLayout.word(task, STATE_WORD), words[STATE_WORD]);
  }

  /**
   * Reads slot {@code task} of {@code ring}; the state word first, with acquire semantics, so the
   * rest is at least as new as the state.
   *
   * @throws dev.vyre.driver.error.ProtocolException when the slot is outside the ring
   * @throws BackendException for an unknown state or priority word
   */
  public static TaskWorkItem readFrom(MemorySegment ring, long task) {
    TaskLayout.checkTask(ring, task);
    int[] words = new int[TASK_WORDS];
    words[STATE_WORD] = Words.getAcquire(ring, TaskLayout.word(task, STATE_WORD));
    for (int field = STATE_WORD + 1; field < TASK_WORDS; field++) {
      words[field] = Words.get(ring, TaskLayout.word(task, field));
    }
    return fromWords(words);
  }

  private void requireTransitionable(String action) {
    if (!state.transitionable()) {
      throw invalidTransition(action);
    }
  }

  private BackendException invalidTransition(String action) {
    return BackendException.other("megakernel task cannot " + action + " from state " + state
        + ". Fix: publish only legal task lifecycle transitions before mutating the task slot.");
  }

  /** {@code counter + 1} as a u32, refusing to wrap. */
  private static int increment(int counter, String name) {
    long next = Unsigned.checkedAddU32(Unsigned.u32(counter), 1);
    if (next < 0) {
      throw BackendException.other("megakernel task " + name
          + " overflowed u32. Fix: drain or shard the task ring before mutating continuation counters.");
    }
    return (int) next;
  }
}

package dev.vyre.policy.workitem;

import dev.vyre.driver.error.ProtocolException;
import java.lang.foreign.MemorySegment;

/**
 * Layout of one continuation task item (docs/PORTS.md, "Continuation tasks"): 16 little-endian u32
 * words, the size of a ring slot, whose first four words mirror the slot header (state, op handle,
 * tenant, priority). Task {@code t} of a task ring occupies words {@code [16t, 16t + 16)}.
 */
public final class TaskLayout {

  public static final int TASK_WORDS = 16;
  public static final int TASK_BYTES = TASK_WORDS * 4;

  /** A {@link TaskState} word; the same numbers as the ring slot status. */
  public static final int STATE_WORD = 0;
  public static final int OP_HANDLE_WORD = 1;
  public static final int TENANT_WORD = 2;
  /** A {@link TaskPriority} word. */
  public static final int PRIORITY_WORD = 3;
  public static final int INPUT_HANDLE_WORD = 4;
  public static final int OUTPUT_HANDLE_WORD = 5;
  public static final int PARAM_WORD = 6;
  /** Where the worker resumes: a program counter or block id. */
  public static final int CONTINUATION_PC_WORD = 7;
  /** Continuation-local scratch; a faulted task's fault code. */
  public static final int CONTINUATION_DATA_WORD = 8;
  /** The device epoch at which a paused task may resume. */
  public static final int RESUME_EPOCH_WORD = 9;
  public static final int TASK_ID_WORD = 10;
  /** The task this one was split from; 0 for none. */
  public static final int PARENT_TASK_ID_WORD = 11;
  public static final int AGE_TICKS_WORD = 12;
  public static final int REQUEUE_COUNT_WORD = 13;
  public static final int YIELD_COUNT_WORD = 14;
  public static final int FLAGS_WORD = 15;

  /** The task paused at a continuation point. */
  public static final int FLAG_PAUSED = 1 << 0;
  /** The task yielded so another could run on its worker. */
  public static final int FLAG_YIELDED = 1 << 1;
  /** The task asked the scheduler to publish it again. */
  public static final int FLAG_REQUEUE_REQUESTED = 1 << 2;
  /** A paused task may resume. */
  public static final int FLAG_RESUME_READY = 1 << 3;

  private TaskLayout() {}

  /** Bytes of a task ring of {@code tasks} items. */
  public static long byteLength(long tasks) {
    return tasks * TASK_BYTES;
  }

  /** Ring word index of {@code field} in task {@code task}. */
  public static long word(long task, int field) {
    return task * TASK_WORDS + field;
  }

  /** Refuses a task index whose 16 words do not all lie inside {@code ring}. */
  public static void checkTask(MemorySegment ring, long task) {
    long tasks = ring.byteSize() / TASK_BYTES;
    if (task < 0 || task >= tasks) {
      throw ProtocolException.missingWord("task ring", word(task, FLAGS_WORD), ring.byteSize(),
          "address a task below " + tasks + " or allocate TaskLayout.byteLength(tasks) bytes");
    }
  }
}

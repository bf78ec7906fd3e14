package dev.vyre.observe.replay;

import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Layout of the rerun sidecar {@code VRRS0001} (ours, not vyre's): what a replay log
 * lacks for re-running a recorded run and comparing it, kept in {@code FILE.rerun} next to the log
 * {@code FILE}. A 64-byte header with the run's settings and final counts, one 80-byte entry per
 * record of the log (entry {@code k} describes record {@code k}, so a log that wrapped stays
 * aligned), then the final observable words. All fields are little-endian.
 *
 * <pre>
 * header   0..8  magic "VRRS0001"            entries  0..4   magic 0xDEADBEEF (0 = never written)
 *          8..12 version u32 = 1                      4..8   task: its index in program order
 *         12..16 flags u32: 1 = finished              8..16  timestamp_ns u64, as in the record
 *         16..24 capacity u64 (the log's)            16..20  tenant    20..24 opcode
 *         24..32 timeout_s u64                       24..28  priority (0 CRITICAL .. 4 IDLE)
 *         32..36 tasks       36..40 slots            28..32  arg count (0..12)
 *         40..44 tenants     44..48 observables      32..80  args[0..12], unused ones 0
 *         48..52 DONE_COUNT  52..56 FAULT_COUNT
 *         56..60 EPOCH       60..64 reserved 0
 * trailer at 64 + 80 * capacity: observables u32 words, control words 160.. at the end of the run
 * </pre>
 *
 * The final counts and the trailer are valid once the finished flag is set; the file is exactly
 * {@link #fileLength} bytes.
 */
public final class RerunSidecarFormat {

  public static final byte[] MAGIC = "VRRS0001".getBytes(StandardCharsets.US_ASCII);
  public static final int VERSION = 1;
  public static final int HEADER_BYTES = 64;
  public static final int MAGIC_OFFSET = 0;
  public static final int VERSION_OFFSET = 8;
  public static final int FLAGS_OFFSET = 12;
  /** Flag: the run finished and the final counts and observables were written. */
  public static final int FLAG_FINISHED = 1;
  public static final int CAPACITY_OFFSET = 16;
  public static final int TIMEOUT_OFFSET = 24;
  public static final int TASKS_OFFSET = 32;
  public static final int SLOTS_OFFSET = 36;
  public static final int TENANTS_OFFSET = 40;
  public static final int OBSERVABLES_OFFSET = 44;
  public static final int DONE_COUNT_OFFSET = 48;
  public static final int FAULT_COUNT_OFFSET = 52;
  public static final int EPOCH_OFFSET = 56;

  public static final int ENTRY_BYTES = 80;
  /** An entry's marker, as a VRRL record's; an entry whose first word is 0 was never written. */
  public static final int ENTRY_MAGIC = ReplayLogFormat.RECORD_MAGIC;
  public static final int ENTRY_MAGIC_OFFSET = 0;
  public static final int TASK_OFFSET = 4;
  public static final int TIMESTAMP_OFFSET = 8;
  public static final int TENANT_OFFSET = 16;
  public static final int OPCODE_OFFSET = 20;
  public static final int PRIORITY_OFFSET = 24;
  public static final int ARG_COUNT_OFFSET = 28;
  public static final int ARGS_OFFSET = 32;

  private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private RerunSidecarFormat() {}

  /** Byte offset of entry {@code index}. */
  public static long entryOffset(long index) {
    return HEADER_BYTES + index * ENTRY_BYTES;
  }

  /** Byte offset of the final observable words, after the entries. */
  public static long observablesOffset(long capacity) {
    return entryOffset(capacity);
  }

  /** The file length of a sidecar of {@code capacity} entries and {@code observables} final words. */
  public static long fileLength(long capacity, long observables) {
    return observablesOffset(capacity) + 4 * observables;
  }

  /**
   * What is wrong with a header's sizes, or null when a file may have them: a capacity of 1..
   * {@link ReplayLogFormat#MAX_REPLAY_RECORDS} (the log's) and at most
   * {@link ControlLayout#MAX_ENCODED_OBSERVABLE_SLOTS} observables.
   */
  public static String checkSizes(long capacity, long observables) {
    if (capacity < 1 || capacity > ReplayLogFormat.MAX_REPLAY_RECORDS) {
      return "capacity " + Long.toUnsignedString(capacity) + " is outside 1.." + ReplayLogFormat.MAX_REPLAY_RECORDS;
    }
    if (observables < 0 || observables > ControlLayout.MAX_ENCODED_OBSERVABLE_SLOTS) {
      return Long.toUnsignedString(observables) + " observables is outside 0.." + ControlLayout.MAX_ENCODED_OBSERVABLE_SLOTS;
    }
    return null;
  }

  // ---------------------------------------------------------------- header

  /** Writes a header: the settings, then the final counts and the finished flag when {@code end} is not null. */
  public static void writeHeader(MemorySegment header, RerunSidecar.Header settings, RerunSidecar.FinalState end) {
    header.asSlice(0, HEADER_BYTES).fill((byte) 0);
    MemorySegment.copy(MemorySegment.ofArray(MAGIC), 0, header, MAGIC_OFFSET, MAGIC.length);
    header.set(U32, VERSION_OFFSET, VERSION);
    header.set(U32, FLAGS_OFFSET, end != null ? FLAG_FINISHED : 0);
    header.set(U64, CAPACITY_OFFSET, settings.capacity());
    header.set(U64, TIMEOUT_OFFSET, settings.timeoutSeconds());
    header.set(U32, TASKS_OFFSET, settings.tasks());
    header.set(U32, SLOTS_OFFSET, settings.slots());
    header.set(U32, TENANTS_OFFSET, settings.tenants());
    header.set(U32, OBSERVABLES_OFFSET, settings.observables());
    if (end != null) {
      header.set(U32, DONE_COUNT_OFFSET, end.doneCount());
      header.set(U32, FAULT_COUNT_OFFSET, end.faultCount());
      header.set(U32, EPOCH_OFFSET, end.epoch());
    }
  }

  /** Whether the header's magic and version are {@code VRRS0001}, version 1. */
  public static boolean isKnownHeader(MemorySegment header) {
    return header.asSlice(MAGIC_OFFSET, MAGIC.length).mismatch(MemorySegment.ofArray(MAGIC)) < 0
        && header.get(U32, VERSION_OFFSET) == VERSION;
  }

  public static int version(MemorySegment header) {
    return header.get(U32, VERSION_OFFSET);
  }

  public static boolean isFinished(MemorySegment header) {
    return (header.get(U32, FLAGS_OFFSET) & FLAG_FINISHED) != 0;
  }

  /** The settings of a known header (see {@link #isKnownHeader}); sizes not checked. */
  public static RerunSidecar.Header readHeader(MemorySegment header) {
    return new RerunSidecar.Header(header.get(U64, CAPACITY_OFFSET), header.get(U64, TIMEOUT_OFFSET), header.get(U32, TASKS_OFFSET),
        header.get(U32, SLOTS_OFFSET), header.get(U32, TENANTS_OFFSET), header.get(U32, OBSERVABLES_OFFSET));
  }

  /** The final state of a finished sidecar: the header's counts and the trailer's {@code observables} words. */
  public static RerunSidecar.FinalState readFinal(MemorySegment header, MemorySegment trailer, int observables) {
    int[] words = new int[observables];
    MemorySegment.copy(trailer, U32, 0, words, 0, observables);
    return new RerunSidecar.FinalState(header.get(U32, DONE_COUNT_OFFSET), header.get(U32, FAULT_COUNT_OFFSET),
        header.get(U32, EPOCH_OFFSET), words);
  }

  /** Writes the final observable words, the bytes at {@link #observablesOffset}. */
  public static void writeObservables(MemorySegment trailer, RerunSidecar.FinalState end) {
    MemorySegment.copy(end.observables(), 0, trailer, U32, 0, end.observableCount());
  }

  // ---------------------------------------------------------------- entries

  /** Writes a whole entry: the magic, the task's index and timestamp, tenant, opcode, priority and args (zero-padded). */
  public static void writeEntry(MemorySegment entry, RerunEntry value) {
    Task task = value.task();
    int[] args = task.args();
    entry.asSlice(0, ENTRY_BYTES).fill((byte) 0);
    entry.set(U32, ENTRY_MAGIC_OFFSET, ENTRY_MAGIC);
    entry.set(U32, TASK_OFFSET, value.taskIndex());
    entry.set(U64, TIMESTAMP_OFFSET, value.timestampNs());
    entry.set(U32, TENANT_OFFSET, task.tenant());
    entry.set(U32, OPCODE_OFFSET, task.opcode());
    entry.set(U32, PRIORITY_OFFSET, task.priority().level());
    entry.set(U32, ARG_COUNT_OFFSET, args.length);
    MemorySegment.copy(args, 0, entry, U32, ARGS_OFFSET, args.length);
  }

  /** The entry's magic word: {@link #ENTRY_MAGIC}, 0 for an entry never written, anything else is damage. */
  public static int entryMagic(MemorySegment entry) {
    return entry.get(U32, ENTRY_MAGIC_OFFSET);
  }

  /**
   * What is wrong with an entry whose magic is {@link #ENTRY_MAGIC} in a sidecar of {@code tasks}
   * tasks, or null when it decodes: a task index, priority or arg count out of range.
   */
  public static String checkEntry(MemorySegment entry, int tasks) {
    int task = entry.get(U32, TASK_OFFSET);
    int priority = entry.get(U32, PRIORITY_OFFSET);
    int argCount = entry.get(U32, ARG_COUNT_OFFSET);
    if (Integer.compareUnsigned(task, tasks) >= 0) {
      return "task " + Integer.toUnsignedString(task) + " is not below the run's " + Integer.toUnsignedString(tasks) + " tasks";
    }
    if (Integer.compareUnsigned(priority, ControlLayout.PRIORITY_LEVELS) >= 0) {
      return "priority " + Integer.toUnsignedString(priority) + " is not a level 0..4";
    }
    if (Integer.compareUnsigned(argCount, SlotLayout.ARGS_PER_SLOT) > 0) {
      return Integer.toUnsignedString(argCount) + " args is more than a slot's " + SlotLayout.ARGS_PER_SLOT;
    }
    return null;
  }

  /** Decodes an entry that {@link #checkEntry} accepts. */
  public static RerunEntry readEntry(MemorySegment entry) {
    int[] args = new int[entry.get(U32, ARG_COUNT_OFFSET)];
    MemorySegment.copy(entry, U32, ARGS_OFFSET, args, 0, args.length);
    Task task = new Task(entry.get(U32, TENANT_OFFSET), Priority.ofLevel(entry.get(U32, PRIORITY_OFFSET)), entry.get(U32, OPCODE_OFFSET),
        args);
    return new RerunEntry(entry.get(U32, TASK_OFFSET), entry.get(U64, TIMESTAMP_OFFSET), task);
  }
}

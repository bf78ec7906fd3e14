package dev.vyre.observe.replay;

import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.SlotLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Layout of the rerun sidecar {@code VRRS0002} (ours, not vyre's): what a replay log
 * lacks for re-running a recorded run and comparing it, kept in {@code FILE.rerun} next to the log
 * {@code FILE}. A 64-byte header with the run's settings and final counts, one 88-byte entry per
 * record of the log (entry {@code k} describes record {@code k}, so a log that wrapped stays
 * aligned), then the final observable words and their checksum. All fields are little-endian.
 * The header, each entry and the trailer each end with a CRC-32C of their other bytes, so damage
 * is found rather than read back as values.
 *
 * <pre>
 * header   0..8  magic "VRRS0002"            entries  0..4   magic 0xDEADBEEF (0 = never written)
 *          8..12 version u32 = 2                      4..8   task: its index in program order
 *         12..16 flags u32: 1 = finished              8..16  timestamp_ns u64, as in the record
 *         16..24 capacity u64 (the log's)            16..20  tenant    20..24 opcode
 *         24..32 timeout_s u64                       24..28  priority (0 CRITICAL .. 4 IDLE)
 *         32..36 tasks       36..40 slots            28..32  arg count (0..12)
 *         40..44 tenants     44..48 observables      32..80  args[0..12], unused ones 0
 *         48..52 DONE_COUNT  52..56 FAULT_COUNT      80..84  reserved 0
 *         56..60 EPOCH                               84..88  CRC32C of bytes 0..84
 *         60..64 CRC32C of bytes 0..60               (an entry never written is 88 zero bytes)
 * trailer at 64 + 88 * capacity: observables u32 words, control words 160.. at the end of the run,
 *         then a CRC32C of those words
 * </pre>
 *
 * The final counts and the trailer are valid once the finished flag is set; the file is exactly
 * {@link #fileLength} bytes. {@code VRRS0001} (no checksums, 80-byte entries) is not read: a
 * re-run is only as good as its inputs, and such a file cannot show that it is undamaged.
 */
public final class RerunSidecarFormat {

  public static final byte[] MAGIC = "VRRS0002".getBytes(StandardCharsets.US_ASCII);
  /** The magic of the first layout, without checksums: recognised to say so, never read. */
  public static final byte[] MAGIC_V1 = "VRRS0001".getBytes(StandardCharsets.US_ASCII);
  public static final int VERSION = 2;
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
  public static final int HEADER_CHECKSUM_OFFSET = 60;

  public static final int ENTRY_BYTES = 88;
  /** An entry's marker, as a VRRL record's; an entry never written is all zeros. */
  public static final int ENTRY_MAGIC = ReplayLogFormat.RECORD_MAGIC;
  public static final int ENTRY_MAGIC_OFFSET = 0;
  public static final int TASK_OFFSET = 4;
  public static final int TIMESTAMP_OFFSET = 8;
  public static final int TENANT_OFFSET = 16;
  public static final int OPCODE_OFFSET = 20;
  public static final int PRIORITY_OFFSET = 24;
  public static final int ARG_COUNT_OFFSET = 28;
  public static final int ARGS_OFFSET = 32;
  public static final int ENTRY_CHECKSUM_OFFSET = 84;
  /** The trailer's checksum follows its observable words. */
  public static final int TRAILER_CHECKSUM_BYTES = 4;

  private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final MemorySegment NEVER_WRITTEN = MemorySegment.ofArray(new byte[ENTRY_BYTES]);

  private RerunSidecarFormat() {}

  /** Byte offset of entry {@code index}. */
  public static long entryOffset(long index) {
    return HEADER_BYTES + index * ENTRY_BYTES;
  }

  /** Byte offset of the final observable words and their checksum, after the entries. */
  public static long observablesOffset(long capacity) {
    return entryOffset(capacity);
  }

  /** The file length of a sidecar of {@code capacity} entries and {@code observables} final words. */
  public static long fileLength(long capacity, long observables) {
    return observablesOffset(capacity) + 4 * observables + TRAILER_CHECKSUM_BYTES;
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
    header.set(U32, HEADER_CHECKSUM_OFFSET, checksum(header, HEADER_CHECKSUM_OFFSET));
  }

  /** What is wrong with a header whose magic and version are known, or null when its checksum holds. */
  public static String checkHeader(MemorySegment header) {
    return checkChecksum(header, HEADER_CHECKSUM_OFFSET);
  }

  /** Whether the header's magic and version are {@code VRRS0002}, version 2. */
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

  /** Writes the final observable words and their checksum, the bytes at {@link #observablesOffset}. */
  public static void writeObservables(MemorySegment trailer, RerunSidecar.FinalState end) {
    int wordBytes = 4 * end.observableCount();
    MemorySegment.copy(end.observables(), 0, trailer, U32, 0, end.observableCount());
    trailer.set(U32, wordBytes, checksum(trailer, wordBytes));
  }

  /** What is wrong with the trailer of a finished sidecar of {@code observables} words, or null when its checksum holds. */
  public static String checkTrailer(MemorySegment trailer, int observables) {
    return checkChecksum(trailer, 4L * observables);
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
    entry.set(U32, ENTRY_CHECKSUM_OFFSET, checksum(entry, ENTRY_CHECKSUM_OFFSET));
  }

  /** The entry's magic word: {@link #ENTRY_MAGIC}, 0 for an entry never written, anything else is damage. */
  public static int entryMagic(MemorySegment entry) {
    return entry.get(U32, ENTRY_MAGIC_OFFSET);
  }

  /**
   * What is wrong with an entry in a sidecar of {@code tasks} tasks, or null when it decodes: a
   * magic that is neither {@link #ENTRY_MAGIC} nor 0 (with the rest 0, never written), a checksum
   * that does not hold, a task index, priority or arg count out of range. An entry with a checksum
   * that holds and a field out of range was written so, by a bug, not damaged since.
   */
  public static String checkEntry(MemorySegment entry, int tasks) {
    int magic = entryMagic(entry);
    if (magic == 0) {
      long written = entry.asSlice(0, ENTRY_BYTES).mismatch(NEVER_WRITTEN);
      return written < 0 ? null : "its magic is 0, as in an entry never written, and byte " + written + " is not";
    }
    if (magic != ENTRY_MAGIC) {
      return String.format("magic 0x%08x, neither 0xdeadbeef nor 0", magic);
    }
    String damage = checkChecksum(entry, ENTRY_CHECKSUM_OFFSET);
    if (damage != null) {
      return damage;
    }
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


  /** Decodes a written entry that {@link #checkEntry} accepts. */
  public static RerunEntry readEntry(MemorySegment entry) {
    int[] args = new int[entry.get(U32, ARG_COUNT_OFFSET)];
    MemorySegment.copy(entry, U32, ARGS_OFFSET, args, 0, args.length);
    Task task = new Task(entry.get(U32, TENANT_OFFSET), Priority.ofLevel(entry.get(U32, PRIORITY_OFFSET)), entry.get(U32, OPCODE_OFFSET),
        args);
    return new RerunEntry(entry.get(U32, TASK_OFFSET), entry.get(U64, TIMESTAMP_OFFSET), task);
  }

  // ---------------------------------------------------------------- checksums

  /** CRC-32C of {@code bytes} {@code 0..length}. */
  private static int checksum(MemorySegment bytes, long length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes.asSlice(0, length).asByteBuffer());
    return (int) crc.getValue();
  }

  /** Null when the u32 at {@code at} is the CRC-32C of the bytes before it, else what it says and what they give. */
  private static String checkChecksum(MemorySegment bytes, long at) {
    int stored = bytes.get(U32, at);
    int computed = checksum(bytes, at);
    return stored == computed ? null : String.format("checksum 0x%08x, its bytes give 0x%08x", stored, computed);
  }
}

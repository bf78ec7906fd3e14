package dev.vyre.runtime.dfa;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.wire.Opcodes;

/**
 * The slot arguments of opcode DFA_STEP (6): which argument word holds what. A slot has twelve
 * argument words (arg0..arg11, slot words 4..15); DFA_STEP uses eleven. arg11 is reserved:
 * publishers write 0 and backends ignore it. DFA_STEP runs only as a slot's own opcode: inside a
 * PACKED_SLOT, where an operation sees at most three argument words, it faults with
 * MALFORMED_PACKED_SLOT. An input, DFA or hit handle that names no registered resource, or a hit
 * handle that names a HOST_MAPPED one, faults with RESOURCE_OUT_OF_RANGE; the other faults are
 * {@link DfaStep}'s ({@link DfaStep#faultReason}).
 * See {@link DfaStep} for the semantics.
 *
 * <pre>
 * arg0  input resource handle
 * arg1  byte offset of the range within the input resource
 * arg2  byte length of the range
 * arg3  DFA resource handle (a {@link DfaTableLayout} table)
 * arg4  start state (the table's start state, or the final state of the previous range)
 * arg5  hit resource handle, DEVICE: a {@link HitBufferLayout} buffer, or in count mode a
 *       {@link MatchCountLayout} resource
 * arg6  input id, copied into each hit record (e.g. the file's index); in count mode the counter
 *       the step adds its hits to
 * arg7  base offset, low word:  absolute offset of the range's byte 0 within the input
 * arg8  base offset, high word
 * arg9  report_from: a match is reported only when its end (exclusive, relative to the range
 *       start) is greater than this; chunk overlap uses it to report each match once
 * arg10 mode: {@link #MODE_RECORDS} (0) appends a record per hit, {@link #MODE_COUNT} (1) only
 *       counts them (a scan that prints counts or file names needs no records)
 * </pre>
 *
 * @param inputOffset u32
 * @param length u32
 * @param baseOffset u64 bit pattern
 * @param reportFrom u32
 * @param mode {@link #MODE_RECORDS} or {@link #MODE_COUNT}
 */
public record DfaStepArgs(int inputHandle, long inputOffset, long length, int dfaHandle, int startState,
    int hitHandle, int inputId, long baseOffset, long reportFrom, int mode) {

  public static final int OPCODE = Opcodes.DFA_STEP;

  public static final int INPUT_HANDLE_ARG = 0;
  public static final int INPUT_OFFSET_ARG = 1;
  public static final int LENGTH_ARG = 2;
  public static final int DFA_HANDLE_ARG = 3;
  public static final int START_STATE_ARG = 4;
  public static final int HIT_HANDLE_ARG = 5;
  public static final int INPUT_ID_ARG = 6;
  public static final int BASE_OFFSET_LO_ARG = 7;
  public static final int BASE_OFFSET_HI_ARG = 8;
  public static final int REPORT_FROM_ARG = 9;
  public static final int MODE_ARG = 10;
  /** Argument words DFA_STEP reads; the remaining (reserved) slot argument is written as 0. */
  public static final int USED_ARGS = 11;
  public static final int SLOT_ARGS = 12;
  /** arg10: append one {@link HitBufferLayout} record per hit. */
  public static final int MODE_RECORDS = 0;
  /** arg10: add the step's hits to counter arg6 of a {@link MatchCountLayout} resource. */
  public static final int MODE_COUNT = 1;

  public DfaStepArgs {
    requireRanges(inputOffset, length, reportFrom);
  }

  /** A step in record mode. */
  public DfaStepArgs(int inputHandle, long inputOffset, long length, int dfaHandle, int startState, int hitHandle,
      int inputId, long baseOffset, long reportFrom) {
    this(inputHandle, inputOffset, length, dfaHandle, startState, hitHandle, inputId, baseOffset, reportFrom,
        MODE_RECORDS);
  }

  private static void requireRanges(long inputOffset, long length, long reportFrom) {
    requireU32("input offset (arg1)", inputOffset);
    requireU32("length (arg2)", length);
    requireU32("report_from (arg9)", reportFrom);
  }

  private static void requireU32(String name, long value) {
    if (!Unsigned.fitsU32(value)) {
      throw InputException.of("DFA_STEP arguments", name + " is " + value + ", outside 0..4294967295",
          "split the range into pieces under 4 GiB");
    }
  }

  /** The twelve slot argument words. */
  public int[] toArgs() {
    int[] args = new int[SLOT_ARGS];
    write(args, inputHandle, inputOffset, length, dfaHandle, startState, hitHandle, inputId, baseOffset, reportFrom);
    args[MODE_ARG] = mode;
    return args;
  }

  /**
   * Writes the argument words into {@code args} (at least {@link #SLOT_ARGS} long) after the same
   * checks as the constructor: a publisher's hot loop fills one reused array this way instead of
   * building a record per task. The mode word is the caller's (0, record mode, in a fresh array).
   */
  public static void write(int[] args, int inputHandle, long inputOffset, long length, int dfaHandle, int startState,
      int hitHandle, int inputId, long baseOffset, long reportFrom) {
    requireRanges(inputOffset, length, reportFrom);
    args[INPUT_HANDLE_ARG] = inputHandle;
    args[INPUT_OFFSET_ARG] = (int) inputOffset;
    args[LENGTH_ARG] = (int) length;
    args[DFA_HANDLE_ARG] = dfaHandle;
    args[START_STATE_ARG] = startState;
    args[HIT_HANDLE_ARG] = hitHandle;
    args[INPUT_ID_ARG] = inputId;
    args[BASE_OFFSET_LO_ARG] = (int) baseOffset;
    args[BASE_OFFSET_HI_ARG] = (int) (baseOffset >>> 32);
    args[REPORT_FROM_ARG] = (int) reportFrom;
  }

  /** Decodes slot argument words (at least {@link #USED_ARGS} of them). */
  public static DfaStepArgs fromArgs(int[] args) {
    return new DfaStepArgs(args[INPUT_HANDLE_ARG], Unsigned.u32(args[INPUT_OFFSET_ARG]), Unsigned.u32(args[LENGTH_ARG]),
        args[DFA_HANDLE_ARG], args[START_STATE_ARG], args[HIT_HANDLE_ARG], args[INPUT_ID_ARG],
        Unsigned.u32(args[BASE_OFFSET_LO_ARG]) | (long) args[BASE_OFFSET_HI_ARG] << 32,
        Unsigned.u32(args[REPORT_FROM_ARG]), args[MODE_ARG]);
  }
}

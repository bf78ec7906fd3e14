package dev.vyre.io;

import dev.vyre.runtime.Task;
import dev.vyre.runtime.spi.SlotContext;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.SlotLayout;

/**
 * A ready-made user opcode whose task loads a file range into a resource through the IO queue
 * (docs/PROTOCOL.md, "Reads a task asks for"), written for both backends: it asks, yields until the
 * pump's verdict, and finishes DONE, or FAULT (HANDLER_FAILED) when the read failed. vyre's
 * LOAD_MISS handshake (docs/PROTOCOL.md, "Load-miss slot") with a range to read. Tasks after it
 * that use the bytes must wait for its ticket: tasks run in any order.
 *
 * <p>Arguments: 0 the source ({@code IoRequestPump.open}), 1 the destination resource, 2 and 3 the
 * file offset's low and high words, 4 the byte count; word 11 is the task's own state (0 before it
 * asked, then its IO slot + 1).
 */
public final class LoadOpcode {

  public static final int SOURCE_ARG = 0;
  public static final int DESTINATION_ARG = 1;
  public static final int OFFSET_LO_ARG = 2;
  public static final int OFFSET_HI_ARG = 3;
  public static final int BYTES_ARG = 4;
  public static final int STATE_ARG = 11;

  private static final String CUDA_BODY = """
      if (args[11] == 0u) {
        int io = vyre_io_read(a, args[0], args[1], ((unsigned long long)args[3] << 32) | args[2], args[4], slot);
        if (io >= 0) args[11] = (unsigned)io + 1u;
        status = VYRE_STATUS_YIELD;
      } else {
        unsigned verdict = vyre_io_status(a, args[11] - 1u);
        if (verdict == VYRE_IO_OK || verdict == VYRE_IO_ERROR) {
          vyre_io_release(a, args[11] - 1u);
          status = verdict == VYRE_IO_OK ? VYRE_STATUS_DONE : VYRE_STATUS_FAULT;
        } else {
          status = VYRE_STATUS_YIELD;
        }
      }""";

  private LoadOpcode() {}

  /** The load opcode under user opcode number {@code opcode}. */
  public static UserOpcode of(int opcode) {
    return UserOpcode.both(opcode, "load", LoadOpcode::run, CUDA_BODY);
  }

  /** A task of load opcode {@code opcode}: {@code bytes} bytes of {@code source} at {@code offset} into resource {@code destination}. */
  public static Task task(int opcode, int source, int destination, long offset, int bytes) {
    return Task.of(opcode, source, destination, (int) offset, (int) (offset >>> 32), bytes);
  }

  private static int run(SlotContext slot) {
    int state = slot.arg(STATE_ARG);
    if (state == 0) {
      long offset = Integer.toUnsignedLong(slot.arg(OFFSET_HI_ARG)) << 32 | Integer.toUnsignedLong(slot.arg(OFFSET_LO_ARG));
      int io = slot.ioRead(slot.arg(SOURCE_ARG), slot.arg(DESTINATION_ARG), offset, slot.arg(BYTES_ARG), slot.slot());
      if (io >= 0) {
        slot.setArg(STATE_ARG, io + 1);
      }
      return SlotLayout.STATUS_YIELD;
    }
    int verdict = slot.ioStatus(state - 1);
    if (verdict != IoQueueLayout.STATUS_OK && verdict != IoQueueLayout.STATUS_ERROR) {
      return SlotLayout.STATUS_YIELD;
    }
    slot.ioRelease(state - 1);
    return verdict == IoQueueLayout.STATUS_OK ? SlotLayout.STATUS_DONE : SlotLayout.STATUS_FAULT;
  }
}

package dev.vyre.runtime.spi;

import java.lang.foreign.MemorySegment;

/**
 * What a Java opcode handler sees of the slot it runs: its identity, its 12 argument words
 * (writable, so a continuation can keep state in them), and the control block. One instance per
 * worker is reused for every slot, so a handler must not keep it.
 */
public interface SlotContext {

  int slot();

  int opcode();

  int tenant();

  int arg(int index);

  void setArg(int index, int value);

  /** The whole control block (160 protocol words, then observables). */
  MemorySegment control();

  /** A registered resource by handle, or null when the handle is unknown. */
  MemorySegment resource(int handle);

  /**
   * Asks the host for a read (docs/PROTOCOL.md, "Reads a task asks for"): {@code byteCount} bytes
   * of IO source {@code source} (a file opened with {@code IoRequestPump.of(kernel).open}; source 0 with
   * 0 bytes is a handshake) at byte {@code offset}, into the start of resource {@code destination}.
   * Returns the IO slot (0..63) that carries the request, or -1 while all 64 are taken or the read
   * does not fit its tenant's read quota now: return YIELD and ask again on a later run. A read
   * larger than the quota never fits: -1 too, and the task faults ({@code TENANT_QUOTA_EXCEEDED})
   * whatever the handler returns (docs/PROTOCOL.md, "Tenant quotas"). The CUDA kernel's
   * {@code vyre_io_read} is the same call.
   */
  int ioRead(int source, int destination, long offset, int byteCount, int tag);

  /**
   * The status of IO slot {@code ioSlot} that {@link #ioRead} returned: PUBLISHED or CLAIMED while
   * the host works on it, {@code IoQueueLayout.STATUS_OK} once the bytes are in the resource, {@code
   * IoQueueLayout.STATUS_ERROR} when the read failed. Acquire: after OK the resource holds the bytes.
   */
  int ioStatus(int ioSlot);

  /** Hands IO slot {@code ioSlot} back (EMPTY) once its OK or ERROR has been seen; the next {@link #ioRead} may take it. */
  void ioRelease(int ioSlot);
}

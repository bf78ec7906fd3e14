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
}

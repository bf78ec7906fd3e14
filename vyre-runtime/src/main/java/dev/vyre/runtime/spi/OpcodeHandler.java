package dev.vyre.runtime.spi;

/**
 * A Java implementation of a user opcode for the reference backend. Returns the slot's final
 * status: {@code SlotLayout.STATUS_DONE}, {@code STATUS_YIELD} or {@code STATUS_REQUEUE} (the kernel
 * runs it again later), {@code STATUS_WAIT_IO}, or {@code STATUS_FAULT}.
 */
@FunctionalInterface
public interface OpcodeHandler {

  int execute(SlotContext slot);
}

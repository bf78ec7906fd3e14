package dev.vyre.reference;

import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.SlotLayout;
import java.util.concurrent.CountDownLatch;

/**
 * A Java user opcode whose handler holds its worker until released (then finishes DONE), so that
 * tests can fill a ring or keep a task in flight deterministically.
 */
final class HoldingOpcode {

  private HoldingOpcode() {}

  /** Counts {@code started} down when a task starts, then waits for {@code release}. */
  static UserOpcode of(int opcode, String name, CountDownLatch started, CountDownLatch release) {
    return UserOpcode.java(opcode, name, ctx -> {
      started.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return SlotLayout.STATUS_DONE;
    });
  }

  static UserOpcode of(int opcode, String name, CountDownLatch release) {
    return of(opcode, name, new CountDownLatch(1), release);
  }
}

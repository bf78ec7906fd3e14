package dev.vyre.policy.adapt;

/**
 * What the worker-group loop reads from a kernel at one instant.
 *
 * @param waiting tasks published and not yet claimed, over every priority level
 * @param running tasks claimed and not yet finished (running, yielded or waiting for IO)
 * @param continuations the kernel's continuation count (control word 159), u32, as it grows
 */
public record QueueSample(long waiting, long running, long continuations) {

  /** The policy's queue length: tasks waiting or running. */
  public long queueLen() {
    return waiting + running;
  }
}

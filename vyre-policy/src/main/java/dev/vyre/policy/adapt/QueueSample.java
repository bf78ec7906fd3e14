package dev.vyre.policy.adapt;

/**
 * What the worker-group loop reads from a kernel at one instant.
 *
 * @param inFlight tasks published and not yet finished (waiting, running, yielded or waiting for
 *     IO): the policy's queue length
 * @param continuations the kernel's continuation count (control word 159), u32, as it grows
 */
public record QueueSample(long inFlight, long continuations) {}

package dev.vyre.driver.error;

import java.util.Map;

/**
 * Runtime pipeline errors (vyre's {@code PipelineError}): a full queue, a request that can never
 * be accepted as made, a slot or buffer the caller named while work still owns it, a closed pump,
 * an io_uring syscall failure, a drain that claimed fewer units than expected, or a backend message.
 *
 * <p>The variants tell a caller what to do next: {@link Variant#QueueFull} and {@link Variant#Busy}
 * may succeed unchanged once work in flight completes; {@link Variant#InvalidArgument} and
 * {@link Variant#Closed} never will.
 */
public final class PipelineException extends VyreException {

  /** What kind of pipeline failure this is. */
  public enum Variant implements ErrorVariant {
    /**
     * Back-pressure: a ring, queue or table is at capacity (no free slot within the publish timeout,
     * the io_uring submission ring, the registered-file table, a full batch, a saturated counter).
     * Nothing was mutated; the same request may succeed once work in flight drains.
     */
    QueueFull,
    /**
     * The request can never succeed as made: an argument out of range (a slot count, tenant id or
     * opcode), a buffer of the wrong size, a handle that names nothing, or a call the object's state
     * forbids (an illegal slot transition, a sampler started twice). Nothing was mutated. Not a vyre
     * variant: kept apart from {@code QueueFull} so that a validation failure never reads as
     * back-pressure (retrying it cannot help).
     */
    InvalidArgument,
    /**
     * The slot, chunk, buffer, tag or file the caller named is still owned by work in flight.
     * Nothing was mutated; wait for that work (or use another one), then retry. Not a vyre variant.
     */
    Busy,
    /** The pump or queue was closed: it accepts nothing more. Not a vyre variant. */
    Closed,
    /** A wrapped lower-level failure or a backend message. */
    Backend,
    /** An io_uring syscall failed with an errno. */
    IoUringSyscall,
    /** io_uring needs Linux. */
    NotLinux,
    /** A drain claimed fewer units than it expected. */
    DrainIncomplete
  }

  private PipelineException(Variant variant, Map<String, Object> fields, String message, Throwable cause) {
    super(variant, fields, message, cause);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "PipelineError";
  }

  /** True for {@link Variant#QueueFull}: back-pressure, the queue refused the request and nothing was mutated. */
  public boolean isQueueFull() {
    return variant() == Variant.QueueFull;
  }

  public boolean isDrainIncomplete() {
    return variant() == Variant.DrainIncomplete;
  }

  public static PipelineException queueFull(String queue, String fix) {
    return new PipelineException(Variant.QueueFull, fieldMap("queue", queue, "fix", fix),
        queue + " queue refused the request. Fix: " + fix, null);
  }

  /** {@code QueueFull} whose message also says what was full, not only which queue refused. */
  public static PipelineException queueFull(String queue, String problem, String fix) {
    return new PipelineException(Variant.QueueFull, fieldMap("queue", queue, "fix", fix),
        queue + " queue refused the request: " + problem + ". Fix: " + fix, null);
  }

  /**
   * {@link Variant#InvalidArgument}: {@code subject} names what was asked for (the queue or object
   * the request went to, e.g. {@code submission}, {@code resource}), {@code problem} what is wrong.
   */
  public static PipelineException invalidArgument(String subject, String problem, String fix) {
    return new PipelineException(Variant.InvalidArgument, fieldMap("subject", subject, "problem", problem, "fix", fix),
        "invalid " + subject + " request: " + problem + ". Fix: " + fix, null);
  }

  /** {@link Variant#Busy}: {@code problem} names the slot (chunk, buffer, ...) and the work that still owns it. */
  public static PipelineException busy(String subject, String problem, String fix) {
    return new PipelineException(Variant.Busy, fieldMap("subject", subject, "problem", problem, "fix", fix),
        subject + ": " + problem + ". Fix: " + fix, null);
  }

  /** {@link Variant#Closed}: {@code subject} (e.g. {@code ingest pump}) was closed before the request. */
  public static PipelineException closed(String subject, String fix) {
    return new PipelineException(Variant.Closed, fieldMap("subject", subject, "fix", fix),
        subject + " is closed. Fix: " + fix, null);
  }

  public static PipelineException backend(String message) {
    return new PipelineException(Variant.Backend, fieldMap("message", message), "backend error: " + message, null);
  }

  public static PipelineException ioUringSyscall(String syscall, int errno, String fix) {
    return new PipelineException(Variant.IoUringSyscall, fieldMap("syscall", syscall, "errno", (long) errno, "fix", fix),
        "io_uring " + syscall + " failed with errno " + errno + ". Fix: " + fix, null);
  }

  public static PipelineException notLinux() {
    return new PipelineException(Variant.NotLinux, fieldMap(),
        "io_uring needs Linux. Fix: run on Linux 5.6 or newer, or use the FileChannel reader.", null);
  }

  /** io_uring cannot be used on this Linux: {@code why}, and what to do. */
  public static PipelineException notLinux(String why, String fix) {
    return new PipelineException(Variant.NotLinux, fieldMap("why", why), why + ". Fix: " + fix + ".", null);
  }

  public static PipelineException drainIncomplete(String descriptor, long claimed, long expected, String unit) {
    long unscanned = Math.max(0, expected - claimed);
    return new PipelineException(Variant.DrainIncomplete,
        fieldMap("descriptor", descriptor, "claimed", claimed, "expected", expected, "unit", unit),
        descriptor + " drain incomplete: only " + claimed + " of " + expected + " " + unit
            + " were claimed (" + unscanned + " unscanned). Fix: raise the drain budget or the worker count.",
        null);
  }

  /** A wrapped lower-level failure, e.g. an {@link java.io.IOException} while reading input. */
  public static PipelineException backend(String message, Throwable cause) {
    return new PipelineException(Variant.Backend, fieldMap("message", message), "backend error: " + message, cause);
  }
}

package dev.vyre.driver.error;

import java.util.Map;

/**
 * Runtime pipeline errors (vyre's {@code PipelineError}): a full or refusing queue, an io_uring
 * syscall failure, a drain that claimed fewer units than expected, or a backend message.
 */
public final class PipelineException extends VyreException {

  /** What kind of pipeline failure this is. */
  public enum Variant implements ErrorVariant {
    /** The queue refused the request; nothing was mutated. */
    QueueFull,
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

  /** True for {@code QueueFull}: the queue refused the request and nothing was mutated. */
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

  /** {@code QueueFull} whose message also says what was wrong, not only which queue refused. */
  public static PipelineException queueFull(String queue, String problem, String fix) {
    return new PipelineException(Variant.QueueFull, fieldMap("queue", queue, "fix", fix),
        queue + " queue refused the request: " + problem + ". Fix: " + fix, null);
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

package dev.vyre.runtime.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A cursor: a long that one thread (or one CAS winner) moves forward while others read it, as
 * the LMAX Disruptor's {@code Sequence}. It sits alone on its cache lines: the fields around it
 * are padding, so that a cursor that publishers CAS or the retire step stores does not drag the
 * fields of its neighbours from core to core with it.
 *
 * <p>Each accessor's name states its memory ordering, and the caller says at the call why it
 * needs that one where more than plain atomicity matters.
 *
 * <p>Internal: public for {@code dev.vyre.runtime} (and the JMH benchmarks, on the class path);
 * this package is not exported.
 */
public final class Sequence extends SequenceRightPadding {

  private static final VarHandle VALUE;

  static {
    try {
      VALUE = MethodHandles.lookup().findVarHandle(SequenceValue.class, "value", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  Sequence() {}

  /** A plain read: no ordering with other memory (the owner's own value, or a statistic). */
  long get() {
    return (long) VALUE.get(this);
  }

  /** Reads the value; what the writer did before its release store of it is visible after this. */
  long getAcquire() {
    return (long) VALUE.getAcquire(this);
  }

  /** Reads the value in the single total order of volatile accesses (a load that must not pass an earlier volatile store). */
  public long getVolatile() {
    return (long) VALUE.getVolatile(this);
  }

  /** Stores the value after everything this thread did before (a reader that acquires it sees that too). */
  void setRelease(long value) {
    VALUE.setRelease(this, value);
  }

  /** Stores the value in the single total order of volatile accesses (no later load passes it). */
  void setVolatile(long value) {
    VALUE.setVolatile(this, value);
  }

  /** Replaces {@code expected} with {@code value} atomically, with volatile ordering; whether it did. */
  boolean compareAndSet(long expected, long value) {
    return VALUE.compareAndSet(this, expected, value);
  }

  @Override
  public String toString() {
    return Long.toString(getVolatile());
  }
}

/** Padding before the value: the JVM lays a superclass's fields out before its subclass's. */
abstract class SequenceLeftPadding {
  long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The value; only {@link Sequence}'s VarHandle touches it. */
abstract class SequenceValue extends SequenceLeftPadding {
  long value;
}

/** Padding after the value: 120 bytes on each side, so that neither this line nor its prefetch pair holds another field. */
abstract class SequenceRightPadding extends SequenceValue {
  long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30;
}

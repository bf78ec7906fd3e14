package dev.vyre.runtime.wire;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Message passing through {@link Words#setRelease} and {@link Words#getAcquire}, the pair every
 * status and doorbell handoff of the ring rests on, on both of their paths: the aligned VarHandle
 * (native memory, as the kernels share) and the fenced plain access (a byte[] segment, which holds
 * no aligned int). Result: the flag the reader acquired, then the data word it read after.
 */
public final class WordsStress {

  private static final int FLAG = 0;
  private static final int DATA = 1;
  private static final int PAYLOAD = 42;

  private WordsStress() {}

  /** The writer: the data word plainly, then the flag with release. */
  static void publish(MemorySegment words) {
    Words.set(words, DATA, PAYLOAD);
    Words.setRelease(words, FLAG, 1);
  }

  /** The reader: the flag with acquire, then the data word plainly. */
  static void observe(MemorySegment words, II_Result r) {
    r.r1 = Words.getAcquire(words, FLAG);
    r.r2 = Words.get(words, DATA);
  }

  @JCStressTest
  @Description("Words release/acquire on native memory (the aligned VarHandle path). Forbidden: 1, 0 (the flag "
      + "seen, the data written before it not).")
  @Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "Nothing seen yet.")
  @Outcome(id = "0, 42", expect = Expect.ACCEPTABLE, desc = "The data seen before the flag.")
  @Outcome(id = "1, 42", expect = Expect.ACCEPTABLE, desc = "Flag and data seen.")
  @Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "The flag seen without the data stored before it.")
  @State
  public static class NativeMemory {
    private final MemorySegment words = Arena.ofAuto().allocate(2 * Integer.BYTES, Integer.BYTES);

    @Actor
    public void writer() {
      publish(words);
    }

    @Actor
    public void reader(II_Result r) {
      observe(words, r);
    }
  }

  @JCStressTest
  @Description("Words release/acquire on a byte[] segment (the fenced plain path). Forbidden: 1, 0 (the flag "
      + "seen, the data written before it not).")
  @Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "Nothing seen yet.")
  @Outcome(id = "0, 42", expect = Expect.ACCEPTABLE, desc = "The data seen before the flag.")
  @Outcome(id = "1, 42", expect = Expect.ACCEPTABLE, desc = "Flag and data seen.")
  @Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "The flag seen without the data stored before it.")
  @State
  public static class ByteArray {
    private final MemorySegment words = MemorySegment.ofArray(new byte[2 * Integer.BYTES]);

    @Actor
    public void writer() {
      publish(words);
    }

    @Actor
    public void reader(II_Result r) {
      observe(words, r);
    }
  }
}

package dev.vyre.runtime.dfa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.driver.error.InputException;
import org.junit.jupiter.api.Test;

class DfaStepArgsTest {

  @Test
  void argumentWordsAreTheDocumentedOnes() {
    DfaStepArgs args = new DfaStepArgs(11, 4096, 0xFFFF_FFFFL, 12, 5, 13, 0x8000_0007, 0x1_0000_0010L, 31);
    assertArrayEquals(new int[] {11, 4096, -1, 12, 5, 13, 0x8000_0007, 0x10, 1, 31, 0, 0}, args.toArgs());
    assertEquals(args, DfaStepArgs.fromArgs(args.toArgs()));
    assertEquals(6, DfaStepArgs.OPCODE);
    assertEquals(11, DfaStepArgs.USED_ARGS);
    DfaStepArgs counting = new DfaStepArgs(11, 4096, 16, 12, 5, 13, 2, 0, 0, DfaStepArgs.MODE_COUNT);
    assertEquals(DfaStepArgs.MODE_COUNT, counting.toArgs()[DfaStepArgs.MODE_ARG]);
    assertEquals(counting, DfaStepArgs.fromArgs(counting.toArgs()));
  }

  @Test
  void rangeWordsAreU32() {
    InputException e = assertThrows(InputException.class,
        () -> new DfaStepArgs(0, 0, 1L << 32, 0, 0, 0, 0, 0, 0));
    assertEquals("DFA_STEP arguments: length (arg2) is 4294967296, outside 0..4294967295. Fix: split the range into "
        + "pieces under 4 GiB", e.getMessage());
    assertThrows(InputException.class, () -> new DfaStepArgs(0, -1, 0, 0, 0, 0, 0, 0, 0));
    assertThrows(InputException.class, () -> new DfaStepArgs(0, 0, 0, 0, 0, 0, 0, 0, -1));
  }
}

package dev.vyre.runtime.program;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.PackedSlotCodec;
import dev.vyre.runtime.wire.PackedSlotCodec.PackedOp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The text form of slot programs (issue 2, item 5): one task per line, bad lines name their line and a fix. */
class SlotProgramTest {

  private static InputException bad(String text) {
    InputException e = assertThrows(InputException.class, () -> SlotProgram.parse("p.vslot", text));
    assertTrue(e.getMessage().contains("Fix: "), e.getMessage());
    return e;
  }

  @Test
  void parsesOpcodesByNameAndNumberWithSettings() {
    List<Task> tasks = SlotProgram.parse("p.vslot", """
        # a comment
        ATOMIC_ADD 5 160
        tenant=2 priority=HIGH STORE_U32 7 161   # trailing comment

        0x100 1 2 0xFFFFFFFF
        nop
        """);
    assertEquals(List.of(Task.of(Opcodes.ATOMIC_ADD, 5, 160), new Task(2, Priority.HIGH, Opcodes.STORE_U32, new int[] {7, 161}),
        Task.of(0x100, 1, 2, -1), Task.of(Opcodes.NOP)), tasks);
  }

  @Test
  void packedSlotsTakeNameParenthesisedArgs() {
    List<Task> tasks = SlotProgram.parse("p", "PACKED_SLOT STORE_U32(10,170) ATOMIC_ADD(5,170) NOP()");
    assertEquals(1, tasks.size());
    assertEquals(Opcodes.PACKED_SLOT, tasks.get(0).opcode());
    assertArrayEquals(PackedSlotCodec.encode(new PackedOp(Opcodes.STORE_U32, new int[] {10, 170}),
        new PackedOp(Opcodes.ATOMIC_ADD, new int[] {5, 170}), new PackedOp(Opcodes.NOP, new int[0])), tasks.get(0).args());
  }

  @Test
  void emptyAndCommentOnlyProgramsHaveNoTasks() {
    assertTrue(SlotProgram.parse("p", "").isEmpty());
    assertTrue(SlotProgram.parse("p", "\n  # nothing\r\n\t\n").isEmpty());
  }

  @Test
  void aBadLineNamesItsLineNumber() {
    InputException e = bad("NOP\r\n\nFROB 1 2");
    assertEquals(3L, e.fields().get("line"));
    assertTrue(e.getMessage().startsWith("p.vslot:3: unknown opcode \"FROB\""), e.getMessage());
  }

  @Test
  void refusesBadNumbers() {
    for (String line : new String[] {"ATOMIC_ADD 1 4294967296", "ATOMIC_ADD -1 160", "ATOMIC_ADD 0x 1", "ATOMIC_ADD 1e3 1",
        "ATOMIC_ADD 99999999999999999999999 1", "ATOMIC_ADD ١ 160", "ATOMIC_ADD +1 160"}) {
      assertTrue(bad(line).getMessage().contains("is not a u32"), line);
    }
  }

  @Test
  void refusesBadSettings() {
    assertTrue(bad("tenant=29 NOP").getMessage().contains("outside 0..28"));
    assertTrue(bad("tenant=x NOP").getMessage().contains("is not a u32"));
    assertTrue(bad("tenant= NOP").getMessage().contains("is not a u32"));
    assertTrue(bad("priority=URGENT NOP").getMessage().contains("unknown priority"));
    assertTrue(bad("color=red NOP").getMessage().contains("unknown setting"));
    assertTrue(bad("=3 NOP").getMessage().contains("unknown setting"));
    assertTrue(bad("tenant=1 priority=LOW").getMessage().contains("no opcode"));
  }

  @Test
  void refusesWhatASlotCannotHold() {
    assertTrue(bad("MEMCPY 1 2 3 4 5 6 7 8 9 10 11 12 13").getMessage().contains("a slot holds 12"));
    assertTrue(bad("LOAD_MISS 1").getMessage().contains("User opcode overlaps"));
    assertTrue(bad("0xFFF0").getMessage().contains("User opcode overlaps"));
    assertTrue(bad("PACKED_SLOT MEMCPY(1,2,3) MEMCPY(1,2,3) MEMCPY(1,2,3) MEMCPY(1,2,3) MEMCPY(1,2,3)")
        .getMessage().contains("exceeds the 12-word slot argument budget"));
    assertTrue(bad("PACKED_SLOT PRINTF(1)").getMessage().contains("does not fit a byte"));
    assertTrue(bad("PACKED_SLOT STORE_U32 (1,2)").getMessage().contains("is not NAME(arg,...)"));
    assertTrue(bad("PACKED_SLOT NOP(,)").getMessage().contains("is not a u32"));
    assertTrue(bad("PACKED_SLOT ()").getMessage().contains("does not fit a byte"));
  }

  @Test
  void theShippedExamplesParse() throws IOException {
    Path examples = Path.of("..", "examples");
    try (Stream<Path> files = Files.list(examples)) {
      List<Path> programs = files.filter(p -> p.toString().endsWith(".vslot")).toList();
      assertTrue(programs.size() >= 3, programs.toString());
      for (Path program : programs) {
        assertTrue(!SlotProgram.parse(program.toString(), Files.readString(program)).isEmpty(), program.toString());
      }
    }
  }

  private static void onlyInputErrors(String text) {
    try {
      SlotProgram.parse("fuzz", text);
    } catch (VyreException e) {
      assertTrue(e instanceof InputException, e.toString());
      assertTrue(e.getMessage().startsWith("fuzz:"), e.getMessage());
      assertTrue(e.getMessage().contains("Fix: "), e.getMessage());
    }
  }

  @Property(tries = 500)
  void randomBytesGiveOnlyInputErrors(@ForAll byte[] bytes) {
    onlyInputErrors(new String(bytes, StandardCharsets.UTF_8));
    onlyInputErrors(new String(bytes, StandardCharsets.ISO_8859_1));
  }

  @Provide
  Arbitrary<String> programs() {
    Arbitrary<String> token = Arbitraries.oneOf(
        Arbitraries.of("NOP", "STORE_U32", "ATOMIC_ADD", "LOAD_U32", "COMPARE_SWAP", "MEMCPY", "DFA_STEP", "BATCH_FENCE", "PRINTF",
            "SHUTDOWN", "PACKED_SLOT", "LOAD_MISS", "nop", "0x100", "0xFFFFFFFF", "0x", "4294967296", "-1", "99999999999999999999",
            "tenant=1", "tenant=28", "tenant=29", "tenant=", "tenant=-1", "priority=HIGH", "priority=low", "priority=", "=",
            "x=y", "#", "(", ")", ",", "()", "NOP()", "STORE_U32(1,160)", "MEMCPY(1,2,3)", "ATOMIC_ADD(,)", "NOP(", "(1)",
            "PRINTF(1)", "0x80000001", "\t", "\r", "\n", "\r\n", " "),
        Arbitraries.integers().map(i -> Integer.toString(i)),
        Arbitraries.longs().map(l -> Long.toString(l)),
        Arbitraries.strings().ofMaxLength(6));
    return token.list().ofMaxSize(30).map(tokens -> String.join(" ", tokens));
  }

  @Property(tries = 1000)
  void randomTokensGiveOnlyInputErrors(@ForAll("programs") String text) {
    onlyInputErrors(text);
  }

  @Property(tries = 300)
  void randomStringsGiveOnlyInputErrors(@ForAll String text) {
    onlyInputErrors(text);
  }

  @Test
  void aHugeBadTokenIsQuotedShortNotWhole() {
    // e.g. vyre run data.json on a one-line JSON file of megabytes
    String token = "{\"a\":" + "1".repeat(1_000_000) + "}";
    for (String text : new String[] {token, "NOP " + token, "tenant=" + token + " NOP", "PACKED_SLOT " + token}) {
      InputException e = bad(text);
      assertTrue(e.getMessage().length() < 400, () -> e.getMessage().length() + " characters: " + e.getMessage().substring(0, 200));
      assertTrue(e.getMessage().contains("...\" (1000006 characters)"), e.getMessage());
    }
  }
}

package dev.vyre.runtime.program;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vyre.driver.error.VyreException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing of the slot-program parser on the bytes of a {@code .vslot} file: only a
 * typed error with a fix may come out.
 */
class SlotProgramFuzzTest {

  @FuzzTest
  void parse(byte[] file) {
    String text;
    try {
      // As vyre run reads the file: anything that is not UTF-8 is refused before the parser sees it.
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(file)).toString();
    } catch (CharacterCodingException notUtf8) {
      return;
    }
    try {
      SlotProgram.parse("fuzz.vslot", text);
    } catch (VyreException e) {
      assertTrue(e.getMessage().contains(". Fix: "), e::getMessage);
    }
  }
}

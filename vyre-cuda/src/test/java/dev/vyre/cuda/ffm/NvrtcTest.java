package dev.vyre.cuda.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.DeviceException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Finding NVRTC among candidate libraries, with no NVRTC on the machine: libraries every Linux
 * has (the C and maths libraries) open fine but lack NVRTC's symbols, which is the case a plain
 * "not found" used to hide.
 */
class NvrtcTest {

  @Test
  void aLibraryThatOpensButLacksNvrtcSymbolsIsSkippedAndEveryCandidateIsReported() {
    List<String> candidates = List.of("libm.so.6", "/nonexistent/libnvrtc.so.12", "libc.so.6");
    DeviceException error = assertThrows(DeviceException.class, () -> Nvrtc.load(candidates));
    String message = error.getMessage();
    assertEquals(DeviceException.Variant.Unavailable, error.variant());
    assertTrue(message.contains("libm.so.6 (opened, but symbol nvrtcVersion is missing"), message);
    assertTrue(message.contains("/nonexistent/libnvrtc.so.12 (not found"), message);
    assertTrue(message.contains("libc.so.6 (opened, but symbol nvrtcVersion is missing"), message);
    assertTrue(message.indexOf("libm.so.6") < message.indexOf("/nonexistent") && message.indexOf("/nonexistent") < message.indexOf("libc.so.6"),
        "in the order tried: " + message);
    assertTrue(message.contains("Fix: ") && message.contains("VYRE_NVRTC"), message);
  }

  @Test
  void withNoCandidateTheErrorSaysSoAndHowToFixIt() {
    DeviceException error = assertThrows(DeviceException.class, () -> Nvrtc.load(List.of()));
    assertTrue(error.getMessage().contains("no candidate library to try"), error.getMessage());
    assertTrue(error.getMessage().contains("Fix: "), error.getMessage());
  }
}

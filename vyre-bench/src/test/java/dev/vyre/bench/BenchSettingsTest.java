package dev.vyre.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vyre.io.IoRequestPump;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanOptions;
import org.junit.jupiter.api.Test;

/** The harness's settings refuse what measures nothing, as the vyre bench options do (the CLI says so first, with a Fix). */
class BenchSettingsTest {

  @Test
  void dispatchSettingsThatMeasureNothingAreRefused() {
    assertDoesNotThrow(() -> new DispatchBench.Settings("reference", 1, 0, 16, 16, 1, 1, 1, null));
    assertThrows(IllegalArgumentException.class, () -> new DispatchBench.Settings("reference", 0, 0, 16, 16, 1, 1, 1, null));
    assertThrows(IllegalArgumentException.class, () -> new DispatchBench.Settings("reference", 1, -1, 16, 16, 1, 1, 1, null));
    assertThrows(IllegalArgumentException.class, () -> new DispatchBench.Settings("reference", 1, 0, 17, 16, 1, 1, 1, null));
    assertThrows(IllegalArgumentException.class, () -> new DispatchBench.Settings("reference", 1, 0, 16, 16, 1, 1, 0, null));
  }

  @Test
  void ioSettingsThatMeasureNothingAreRefused() {
    IoRequestPump.ReadPath path = IoRequestPump.ReadPath.FILE_CHANNEL;
    assertDoesNotThrow(() -> new IoBench.Settings("reference", false, IoBench.PAGE, IoBench.PAGE, 1, IoBench.RING_SLOTS, 1, false, path, null));
    assertThrows(IllegalArgumentException.class,
        () -> new IoBench.Settings("reference", false, IoBench.PAGE - 1, 1, 1, 1, 1, false, path, null));
    assertThrows(IllegalArgumentException.class,
        () -> new IoBench.Settings("reference", false, IoBench.PAGE, IoBench.PAGE + 1, 1, 1, 1, false, path, null));
    assertThrows(IllegalArgumentException.class,
        () -> new IoBench.Settings("reference", false, IoBench.PAGE, 1, 1, IoBench.RING_SLOTS + 1, 1, false, path, null));
  }

  @Test
  void scanSettingsThatMeasureNothingAreRefused() {
    ScanOptions options = ScanOptions.forBackend("reference");
    assertDoesNotThrow(() -> new ScanBench.Settings(1, PatternSet.MAX_PATTERNS, "reference", 1, false, null, (name, devices) -> options,
        (builder, o) -> builder.bootstrap(), null));
    assertThrows(IllegalArgumentException.class, () -> new ScanBench.Settings(1, PatternSet.MAX_PATTERNS + 1, "reference", 1,
        false, null, (name, devices) -> options, (builder, o) -> builder.bootstrap(), null));
    assertThrows(IllegalArgumentException.class,
        () -> new ScanBench.Settings(0, 1, "reference", 1, false, null, (name, devices) -> options, (builder, o) -> builder.bootstrap(), null));
  }
}

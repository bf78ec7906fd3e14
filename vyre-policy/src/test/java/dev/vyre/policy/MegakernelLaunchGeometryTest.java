package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;
import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The launch geometry helpers of docs/PORTS.md, "Sizing and grid". */
class MegakernelLaunchGeometryTest {

  /** vyre's {@code from_slots} vectors, through {@code from_item_count}, and their covering groups. */
  @ParameterizedTest
  @CsvSource({
    "300, 64, 256, 64, 320, 5, 5",
    "1, 1000, 256, 256, 256, 1, 1",
    "0, 0, 0, 1, 1, 1, 1",
    "65, 64, 256, 64, 128, 2, 2",
    "100000, 51, 256, 51, 100011, 51, 1961",
    "4294967295, 1, 256, 1, 4294967295, 1, 4294967295",
    "4294967295, 255, 256, 255, 4294967295, 255, 16843009"
  })
  void fromItemCount(long items, long workers, long maxX, long width, long slots, long grid, long covering) {
    MegakernelLaunchGeometry geometry = MegakernelLaunchGeometry.fromItemCount(items, workers, maxX);
    assertEquals(new MegakernelLaunchGeometry(width, slots, grid), geometry);
    assertEquals(MegakernelSizingPolicy.standard().geometryFromSlots(items, workers, maxX), geometry);
    assertEquals(covering, geometry.coveringWorkerGroups());
  }

  @Test
  void itemCountsBeyondU32AreErrors() {
    for (long items : new long[] {1L << 32, -1L}) {
      BackendException error = assertThrows(BackendException.class, () -> MegakernelLaunchGeometry.fromItemCount(items, 64, 256));
      assertEquals(BackendException.Variant.Other, error.variant());
      assertTrue(error.getMessage().contains(Long.toUnsignedString(items)), error.getMessage());
      assertTrue(error.getMessage().contains("Fix: "), error.getMessage());
    }
  }

  @Test
  void paddingThatSaturatesBelowTheItemCountIsAnError() {
    assertEquals(4_294_967_232L, MegakernelSizingPolicy.standard().geometryFromSlots(Unsigned.U32_MAX, 64, 256).slotCount());
    BackendException error =
        assertThrows(BackendException.class, () -> MegakernelLaunchGeometry.fromItemCount(Unsigned.U32_MAX, 64, 256));
    assertEquals(BackendException.Variant.Other, error.variant());
    assertTrue(error.getMessage().contains("4294967232"), error.getMessage());
    assertTrue(error.getMessage().contains("Fix: "), error.getMessage());
  }

  @Test
  void dispatchConfigOverridesGridAndWorkgroup() {
    MegakernelLaunchGeometry geometry = MegakernelLaunchGeometry.fromItemCount(300, 64, 256);
    MegakernelDispatchConfig config = geometry.dispatchConfig(Duration.ofSeconds(60));
    assertEquals(new MegakernelDispatchConfig(Duration.ofSeconds(60), 5, 64), config);
    assertArrayEquals(new long[] {5, 1, 1}, config.gridOverride());
    assertArrayEquals(new long[] {64, 1, 1}, config.workgroupOverride());
    assertArrayEquals(geometry.dispatchGrid(), config.gridOverride());
  }

  @Test
  void handBuiltGeometryMustBeU32WithANonZeroWidth() {
    assertThrows(InputException.class, () -> new MegakernelLaunchGeometry(0, 1, 1));
    assertThrows(InputException.class, () -> new MegakernelLaunchGeometry(1, 1L << 32, 1));
    assertThrows(InputException.class, () -> new MegakernelLaunchGeometry(1, 1, -1));
    assertThrows(InputException.class, () -> MegakernelLaunchGeometry.fromItemCount(1, 1L << 32, 256));
  }

  /** Wherever it succeeds, padding keeps every item, and the covering groups hold every padded slot. */
  @Property
  void fromItemCountNeverShrinks(
      @ForAll @LongRange(min = 0, max = 0xFFFF_FFFFL) long items, @ForAll @LongRange(min = 0, max = 4096) long workers,
      @ForAll @LongRange(min = 0, max = 4096) long maxX) {
    MegakernelLaunchGeometry fromSlots = MegakernelSizingPolicy.standard().geometryFromSlots(items, workers, maxX);
    if (fromSlots.slotCount() < items) {
      assertThrows(BackendException.class, () -> MegakernelLaunchGeometry.fromItemCount(items, workers, maxX));
      return;
    }
    MegakernelLaunchGeometry geometry = MegakernelLaunchGeometry.fromItemCount(items, workers, maxX);
    assertEquals(fromSlots, geometry);
    assertEquals(geometry.slotCount(), geometry.coveringWorkerGroups() * geometry.workgroupSizeX());
  }
}

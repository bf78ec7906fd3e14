package dev.vyre.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import org.junit.jupiter.api.Test;

class MegakernelLaunchRequestTest {

  @Test
  void directCopiesWorkersAndWidthIntoTheLimits() {
    assertEquals(new MegakernelLaunchRequest(300, 64, 256, 64, 256, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        MegakernelLaunchRequest.direct(300, 64, 256));
  }

  @Test
  void builderChangesOnlyWhatItIsTold() {
    MegakernelLaunchRequest request = MegakernelLaunchRequest.directBuilder(1, 2, 3).queueLen(4).requestedWorkerGroups(5)
        .maxWorkgroupSizeX(6).maxComputeWorkgroupsPerDimension(7).maxComputeInvocationsPerWorkgroup(8)
        .requestedHitCapacity(9).expectedHitsPerItem(10).hotOpcodeCount(11).hotWindowCount(12).requeueCount(-1)
        .maxPriorityAge(14).graphNodeCount(15).graphEdgeCount(16).frontierDensityBps(17).memoryPressureBps(18)
        .residentDeviceBytes(19).deviceMemoryBudgetBytes(20).build();
    assertEquals(new MegakernelLaunchRequest(4, 5, 6, 7, 8, 9, 10, 11, 12, -1, 14, 15, 16, 17, 18, 19, 20), request);
    assertEquals(request, request.toBuilder().build());
  }

  @Test
  void hashAgreesWithEqualsAndSeesEveryField() {
    MegakernelLaunchRequest request =
        new MegakernelLaunchRequest(4, 5, 6, 7, 8, 9, 10, 11, 12, -1, 14, 15, 16, 17, 18, 19, 20);
    assertEquals(request.hashCode(), request.toBuilder().build().hashCode());
    assertNotEquals(request.hashCode(), request.toBuilder().deviceMemoryBudgetBytes(21).build().hashCode());
    assertNotEquals(request.hashCode(), request.toBuilder().queueLen(5).build().hashCode());
  }

  @Test
  void outOfRangeFieldsAreNamed() {
    InputException u32 = assertThrows(InputException.class,
        () -> MegakernelLaunchRequest.directBuilder(1, 1, 1).graphEdgeCount(1L << 32).build());
    assertTrue(u32.getMessage().contains("graph_edge_count 4294967296 is outside u32"));
    InputException u16 = assertThrows(InputException.class,
        () -> MegakernelLaunchRequest.directBuilder(1, 1, 1).memoryPressureBps(65_536).build());
    assertTrue(u16.getMessage().contains("memory_pressure_bps 65536 is outside u16"));
    assertThrows(InputException.class, () -> MegakernelLaunchRequest.direct(-1, 1, 1));
  }
}

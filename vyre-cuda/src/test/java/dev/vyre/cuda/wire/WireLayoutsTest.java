package dev.vyre.cuda.wire;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.wire.ControlLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CUDA-only layouts: sizes, field writes, and refusals of wrong-size buffers. */
class WireLayoutsTest {

  @Test
  void kernelArgumentsAreWrittenAtTheirOffsetsAndAWrongSizeIsRefused() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment args = arena.allocate(KernelArgsLayout.BYTES, KernelArgsLayout.ALIGNMENT);
      KernelArgsLayout.putPointer(args, KernelArgsLayout.IO_OWNER_OFFSET, 0x1234_5678_9ABCL);
      KernelArgsLayout.putU32(args, KernelArgsLayout.SCOUT_HOT_NS_OFFSET, 77);
      assertEquals(0x1234_5678_9ABCL, args.get(JAVA_LONG, 104));
      assertEquals(77, args.get(JAVA_INT, 84));
      IllegalArgumentException wrongSize = assertThrows(IllegalArgumentException.class,
          () -> KernelArgsLayout.putU32(arena.allocate(96, 8), KernelArgsLayout.SLOT_COUNT_OFFSET, 1));
      assertTrue(wrongSize.getMessage().contains("VyreKernelArgs is 112 bytes; this segment has 96"), wrongSize.getMessage());
      assertThrows(IllegalArgumentException.class, () -> KernelArgsLayout.putPointer(args, KernelArgsLayout.SLOT_COUNT_OFFSET, 1));
      assertThrows(IllegalArgumentException.class, () -> KernelArgsLayout.putU32(args, KernelArgsLayout.BYTES, 1));
    }
  }

  @Test
  void resourceEntriesCarryTheHostMappedFlagInTheirLength() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment entry = arena.allocate(ResourceTableLayout.ENTRY_BYTES, 8);
      ResourceTableLayout.write(entry, 0xABC0L, 100, true);
      assertEquals(0xABC0L, entry.get(JAVA_LONG, ResourceTableLayout.POINTER_OFFSET));
      assertEquals(100 | Long.MIN_VALUE, entry.get(JAVA_LONG, ResourceTableLayout.BYTES_OFFSET));
      ResourceTableLayout.write(entry, 0xABC0L, 100, false);
      assertEquals(100, entry.get(JAVA_LONG, ResourceTableLayout.BYTES_OFFSET));
      assertEquals(16 * 4096L, ResourceTableLayout.entryOffset(4096));
      assertThrows(IllegalArgumentException.class, () -> ResourceTableLayout.write(arena.allocate(8, 8), 1, 1, false));
    }
  }

  @Test
  void theTraceBlockIsTheDeviceStateTail() {
    assertEquals(96, TraceLayout.BYTES);
    assertEquals(19_360, DeviceStateLayout.TRACE_OFFSET);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment block = arena.allocate(TraceLayout.BYTES, 8);
      block.set(JAVA_LONG, TraceLayout.COUNTS_OFFSET + 8L * TraceLayout.COUNT_TASKS, 2);
      block.set(JAVA_LONG, TraceLayout.COUNTS_OFFSET + 8L * TraceLayout.COUNT_POLLS, 4);
      block.set(JAVA_LONG, TraceLayout.COUNTS_OFFSET + 8L * TraceLayout.COUNT_EXPRESS_TASKS, 1);
      block.set(JAVA_LONG, TraceLayout.SUMS_OFFSET + 8L * TraceLayout.SUM_START_TO_RAN, 3_000);
      block.set(JAVA_LONG, TraceLayout.SUMS_OFFSET + 8L * TraceLayout.SUM_POLL_PERIOD, 8_000);
      Map<String, Double> summary = TraceLayout.summary(block);
      assertEquals(1.5, summary.get("device_slot_in_hand_to_ran_us"));
      assertEquals(2.0, summary.get("device_scout_poll_us"));
      assertEquals(2.0, summary.get("device_traced_tasks"));
      assertEquals(1.0, summary.get("device_express_tasks"));
      assertThrows(IllegalArgumentException.class, () -> TraceLayout.sum(block, TraceLayout.SUMS));
      assertThrows(IllegalArgumentException.class, () -> TraceLayout.summary(arena.allocate(88, 8)));
    }
  }

  @Test
  void theHostWritesShutdownTheTenantTableReadQuotasPriorityOffsetsAndDoorbells() {
    assertTrue(ControlCopies.HOST_WRITTEN_WORDS.contains(ControlLayout.SHUTDOWN));
    assertTrue(ControlCopies.HOST_WRITTEN_WORDS.contains(ControlLayout.tenantMaskWord(ControlLayout.MAX_TENANTS - 1)));
    assertTrue(ControlCopies.HOST_WRITTEN_WORDS.contains(ControlLayout.publishSeqWord(ControlLayout.PRIORITY_LEVELS - 1)));
    assertTrue(!ControlCopies.HOST_WRITTEN_WORDS.contains(ControlLayout.DONE_COUNT));
    assertTrue(ControlCopies.HOST_WRITTEN_WORDS.contains(ControlLayout.tenantQuotaWord(ControlLayout.MAX_TENANTS - 1)));
    assertTrue(!ControlCopies.HOST_WRITTEN_WORDS.contains(ControlLayout.TENANT_QUOTA_REFUSALS));
    assertEquals(1 + 30 + ControlLayout.MAX_TENANTS + 6 + 5, ControlCopies.HOST_WRITTEN_WORDS.size());
  }
}

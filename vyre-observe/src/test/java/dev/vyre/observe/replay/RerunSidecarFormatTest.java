package dev.vyre.observe.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The VRRS0002 bytes, written out by hand: the layout docs/PROTOCOL.md documents. The checksums
 * were worked out apart from the code, with a bitwise CRC-32C (polynomial 0x82F63B78, reflected).
 */
class RerunSidecarFormatTest {

  @TempDir Path dir;

  @Test
  void offsets() {
    assertEquals(64, RerunSidecarFormat.HEADER_BYTES);
    assertEquals(88, RerunSidecarFormat.ENTRY_BYTES);
    assertEquals(64 + 88 * 3, RerunSidecarFormat.entryOffset(3));
    assertEquals(64 + 88 * 2, RerunSidecarFormat.observablesOffset(2));
    assertEquals(64 + 88 * 2 + 4 * 5 + 4, RerunSidecarFormat.fileLength(2, 5));
    assertEquals(RerunSidecarFormat.ARGS_OFFSET + 48 + 4, RerunSidecarFormat.ENTRY_CHECKSUM_OFFSET,
        "twelve args and a reserved word before the checksum");
    assertEquals(RerunSidecarFormat.ENTRY_CHECKSUM_OFFSET + 4, RerunSidecarFormat.ENTRY_BYTES);
  }

  @Test
  void aSidecarFileHasTheDocumentedBytes() throws IOException {
    Path path = dir.resolve("golden.vrrl.rerun");
    byte[] control = new byte[4 * (ControlLayout.OBSERVABLE_BASE + 2)];
    control[4 * ControlLayout.DONE_COUNT] = 1;
    control[4 * ControlLayout.FAULT_COUNT] = 2;
    control[4 * ControlLayout.EPOCH] = 3;
    control[4 * ControlLayout.OBSERVABLE_BASE + 4] = 0x2a;
    try (RerunSidecar sidecar = RerunSidecar.create(path, new RerunSidecar.Header(2, 30, 1, 1024, 2, 2))) {
      sidecar.write(1, new RerunEntry(0, 0x0102_0304_0506_0708L, new Task(1, Priority.HIGH, Opcodes.ATOMIC_ADD, new int[] {5, 161, -1})));
      sidecar.finish(control);
    }
    String expected = ""
        // header: magic, version 2, flags finished, capacity 2, timeout 30 s
        + "5652525330303032" + "02000000" + "01000000" + "0200000000000000" + "1e00000000000000"
        // tasks 1, slots 1024, tenants 2, observables 2, DONE_COUNT 1, FAULT_COUNT 2, EPOCH 3, checksum
        + "01000000" + "00040000" + "02000000" + "02000000" + "01000000" + "02000000" + "03000000" + "147dfa17"
        // entry 0: never written
        + "00".repeat(88)
        // entry 1: magic, task 0, timestamp, tenant 1, ATOMIC_ADD, HIGH, 3 args, args padded to 12, reserved, checksum
        + "efbeadde" + "00000000" + "0807060504030201" + "01000000" + "02000000" + "01000000" + "03000000"
        + "05000000" + "a1000000" + "ffffffff" + "00".repeat(36) + "00000000" + "aeefe280"
        // final observables 0 and 1, checksum
        + "00000000" + "2a000000" + "66e62e12";
    assertEquals(expected, HexFormat.of().formatHex(Files.readAllBytes(path)));
  }

  @Test
  void anEntryOutOfRangeIsNamed() {
    byte[] bytes = new byte[RerunSidecarFormat.ENTRY_BYTES];
    MemorySegment entry = MemorySegment.ofArray(bytes);
    RerunSidecarFormat.writeEntry(entry, new RerunEntry(3, 1, Task.of(Opcodes.NOP)));
    assertNull(RerunSidecarFormat.checkEntry(entry, 4));
    assertTrue(RerunSidecarFormat.checkEntry(entry, 3).contains("task 3 is not below the run's 3 tasks"));
    bytes[RerunSidecarFormat.PRIORITY_OFFSET] = 5;
    assertTrue(RerunSidecarFormat.checkEntry(entry, 4).startsWith("checksum 0x"), "damaged since it was written");
    RerunSidecarFormat.writeEntry(entry, new RerunEntry(0, 1, Task.of(Opcodes.NOP)));
    bytes[RerunSidecarFormat.PRIORITY_OFFSET] = 5;
    resealed(entry);
    assertTrue(RerunSidecarFormat.checkEntry(entry, 4).contains("priority 5"), "written so, with its checksum");
    bytes[RerunSidecarFormat.PRIORITY_OFFSET] = 0;
    bytes[RerunSidecarFormat.ARG_COUNT_OFFSET] = 13;
    resealed(entry);
    assertTrue(RerunSidecarFormat.checkEntry(entry, 4).contains("13 args"));
  }

  @Test
  void anEntryNeverWrittenIsAllZeros() {
    byte[] bytes = new byte[RerunSidecarFormat.ENTRY_BYTES];
    MemorySegment entry = MemorySegment.ofArray(bytes);
    assertNull(RerunSidecarFormat.checkEntry(entry, 1));
    bytes[40] = 7;
    assertEquals("its magic is 0, as in an entry never written, and byte 40 is not", RerunSidecarFormat.checkEntry(entry, 1));
  }

  /** The entry's checksum made to hold again over its bytes as they are now. */
  private static void resealed(MemorySegment entry) {
    CRC32C crc = new CRC32C();
    crc.update(entry.asSlice(0, RerunSidecarFormat.ENTRY_CHECKSUM_OFFSET).asByteBuffer());
    entry.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), RerunSidecarFormat.ENTRY_CHECKSUM_OFFSET,
        (int) crc.getValue());
  }
}

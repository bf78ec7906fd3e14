package dev.vyre.observe.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.Words;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing a rerun sidecar and reading it back, and the files a reader refuses. */
class RerunSidecarTest {

  @TempDir Path dir;

  private static final RerunSidecar.Header HEADER = new RerunSidecar.Header(3, 30, 2, 64, 2, 4);
  private static final Task PACKED = new Task(1, Priority.LOW, Opcodes.PACKED_SLOT, new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -12});
  private static final Task ADD = Task.of(Opcodes.ATOMIC_ADD, 5, 161);

  private Path path() {
    return RerunSidecar.pathFor(dir.resolve("run.vrrl"));
  }

  private static byte[] control(int done, int fault, int epoch, int... observables) {
    byte[] bytes = new byte[4 * (ControlLayout.OBSERVABLE_BASE + observables.length)];
    MemorySegment words = MemorySegment.ofArray(bytes);
    Words.set(words, ControlLayout.DONE_COUNT, done);
    Words.set(words, ControlLayout.FAULT_COUNT, fault);
    Words.set(words, ControlLayout.EPOCH, epoch);
    for (int i = 0; i < observables.length; i++) {
      Words.set(words, ControlLayout.OBSERVABLE_BASE + i, observables[i]);
    }
    return bytes;
  }

  private Path written(boolean finish) {
    try (RerunSidecar sidecar = RerunSidecar.create(path(), HEADER)) {
      sidecar.write(2, new RerunEntry(0, 11, PACKED));
      sidecar.write(0, new RerunEntry(1, 12, ADD));
      if (finish) {
        sidecar.finish(control(1, 1, 7, 5, 0, -1, 9));
      }
      sidecar.sync();
    }
    return path();
  }

  @Test
  void theSidecarOfALogIsBesideIt() {
    assertEquals(dir.resolve("run.vrrl.rerun"), RerunSidecar.pathFor(dir.resolve("run.vrrl")));
  }

  @Test
  void roundTrip() {
    RerunSidecar.Contents contents = RerunSidecar.read(written(true));
    assertEquals(HEADER, contents.header());
    assertEquals(3, contents.entries().size(), "one per record of the log");
    assertEquals(new RerunEntry(1, 12, ADD), contents.entries().get(0));
    assertNull(contents.entries().get(1), "never written");
    RerunEntry packed = contents.entries().get(2);
    assertEquals(PACKED, packed.task(), "all twelve args, the tenant and the priority");
    assertEquals(11, packed.timestampNs());
    RerunSidecar.FinalState end = contents.finalState();
    assertEquals(1, end.doneCount());
    assertEquals(1, end.faultCount());
    assertEquals(7, end.epoch());
    assertArrayEquals(new int[] {5, 0, -1, 9}, end.observables());
  }

  @Test
  void aRunThatDidNotFinishHasNoFinalState() {
    assertNull(RerunSidecar.read(written(false)).finalState());
  }

  @Test
  void finishingTwiceKeepsTheFirstEnd() {
    try (RerunSidecar sidecar = RerunSidecar.create(path(), HEADER)) {
      sidecar.finish(control(1, 0, 0, 1, 2, 3, 4));
      sidecar.finish(control(9, 9, 9, 9, 9, 9, 9));
    }
    assertEquals(1, RerunSidecar.read(path()).finalState().doneCount());
  }

  @Test
  void anEntryDescribesTheRecordOfItsTask() {
    RerunEntry entry = new RerunEntry(0, 11, PACKED);
    RecordedSlot recorded = RecordedSlot.of(11, 40, 1, Opcodes.PACKED_SLOT, PACKED.args(), 3);
    assertTrue(entry.describes(recorded), "whatever slot and EPOCH it ran with");
    assertFalse(entry.describes(RecordedSlot.of(12, 40, 1, Opcodes.PACKED_SLOT, PACKED.args(), 3)), "another timestamp");
    assertFalse(entry.describes(RecordedSlot.of(11, 40, 0, Opcodes.PACKED_SLOT, PACKED.args(), 3)), "another tenant");
    assertFalse(entry.describes(RecordedSlot.of(11, 40, 1, Opcodes.PACKED_SLOT, new int[] {1, 2, 3, 5}, 3)), "other args");
  }

  @Test
  void aTruncatedFileIsRefused() throws IOException {
    Path path = written(true);
    byte[] bytes = Files.readAllBytes(path);
    Files.write(path, Arrays.copyOf(bytes, bytes.length - 1));
    InputException error = assertThrows(InputException.class, () -> RerunSidecar.read(path));
    assertTrue(error.getMessage().contains("is 347 bytes but a rerun sidecar of 3 entries and 4 observables has 348")
        && error.getMessage().contains("Fix: record the program again"), error.getMessage());
    Files.write(path, Arrays.copyOf(bytes, 20));
    error = assertThrows(InputException.class, () -> RerunSidecar.read(path));
    assertTrue(error.getMessage().contains("is 20 bytes, shorter than the 64-byte header"), error.getMessage());
  }

  @Test
  void aFileWithAnotherMagicIsNotASidecar() throws IOException {
    Path path = written(true);
    byte[] bytes = Files.readAllBytes(path);
    bytes[3] = 'L';
    Files.write(path, bytes);
    InputException error = assertThrows(InputException.class, () -> RerunSidecar.read(path));
    assertTrue(error.getMessage().contains("not a rerun sidecar") && error.getMessage().contains("Fix: "), error.getMessage());
    Files.write(path, new byte[0]);
    error = assertThrows(InputException.class, () -> RerunSidecar.read(path));
    assertTrue(error.getMessage().contains("not a rerun sidecar"), error.getMessage());
  }

  @Test
  void anotherVersionOrADamagedEntryIsRefused() throws IOException {
    Path path = written(true);
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
      file.seek(RerunSidecarFormat.VERSION_OFFSET);
      file.write(3);
    }
    InputException error = assertThrows(InputException.class, () -> RerunSidecar.read(path));
    assertTrue(error.getMessage().contains("rerun sidecar version 3, this vyre reads version 2"), error.getMessage());
    written(true);
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
      file.seek(RerunSidecarFormat.entryOffset(2) + RerunSidecarFormat.ENTRY_MAGIC_OFFSET);
      file.write(0x11);
    }
    error = assertThrows(InputException.class, () -> RerunSidecar.read(path));
    assertTrue(error.getMessage().contains("entry 2 (byte 240) is damaged: magic 0xdeadbe11"), error.getMessage());
  }

  /**
   * Every single flipped byte and every cut of a finished sidecar is refused with the file's name
   * and what is damaged where, never read back as other values: a flip in the header, an entry
   * (written or never written) or the final state fails that part's checksum or zero check.
   */
  @Test
  void everyFlippedByteAndEveryCutIsRefusedNamingTheFile() throws IOException {
    byte[] intact = Files.readAllBytes(written(true));
    Path damaged = dir.resolve("damaged.vrrl.rerun");
    for (int at = 0; at < intact.length; at++) {
      byte[] bytes = intact.clone();
      bytes[at] ^= (byte) (1 << (at % 8));
      Files.write(damaged, bytes);
      int flipped = at;
      InputException error = assertThrows(InputException.class, () -> RerunSidecar.read(damaged), () -> "byte " + flipped);
      assertTrue(error.getMessage().startsWith(damaged + ": ") && error.getMessage().contains("Fix: record the program again"),
          error.getMessage());
      String where = at < RerunSidecarFormat.MAGIC.length ? "not a rerun sidecar"
          : at < RerunSidecarFormat.VERSION_OFFSET + 4 ? "rerun sidecar version"
          : at < RerunSidecarFormat.HEADER_BYTES ? "its header (bytes 0..64) has checksum"
          : at < RerunSidecarFormat.observablesOffset(HEADER.capacity()) ? "entry " + (at - RerunSidecarFormat.HEADER_BYTES)
              / RerunSidecarFormat.ENTRY_BYTES + " (byte "
          : "the final state (byte " + RerunSidecarFormat.observablesOffset(HEADER.capacity()) + ") is damaged: checksum";
      assertTrue(error.getMessage().contains(where), "byte " + at + ": " + error.getMessage());
    }
    for (int length = 0; length < intact.length; length++) {
      Files.write(damaged, Arrays.copyOf(intact, length));
      assertThrows(InputException.class, () -> RerunSidecar.read(damaged), "cut to " + length + " bytes");
    }
  }

  @Test
  void aZeroedEntryMagicAndAVersionOneFileAreRefused() throws IOException {
    Path path = written(true);
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
      file.seek(RerunSidecarFormat.entryOffset(0));
      file.writeInt(0);
    }
    InputException error = assertThrows(InputException.class, () -> RerunSidecar.read(path));
    assertTrue(error.getMessage().contains("entry 0 (byte 64) is damaged: its magic is 0, as in an entry never written, and"
        + " byte 4 is not"), error.getMessage());
    Files.write(path, "VRRS0001".getBytes(StandardCharsets.US_ASCII));
    error = assertThrows(InputException.class, () -> RerunSidecar.read(path));
    assertTrue(error.getMessage().contains("a VRRS0001 rerun sidecar, written before sidecars had checksums"), error.getMessage());
  }
}

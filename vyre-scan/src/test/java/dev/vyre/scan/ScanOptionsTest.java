package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import org.junit.jupiter.api.Test;

class ScanOptionsTest {

  @Test
  void defaultsCutFourMiBChunksIntoSixtyFourTasks() {
    ScanOptions options = ScanOptions.defaults();
    assertEquals(4L << 20, options.chunkBytes());
    assertEquals(64, options.tasksPerChunk());
    assertEquals(16 * 64, options.ringSlots());
    assertTrue(options.keepHits());
  }

  @Test
  void theReferenceBackendKeepsTwoBuffersACoreInFlightFromFourToSixteen() {
    int cores = Runtime.getRuntime().availableProcessors();
    ScanOptions reference = ScanOptions.forBackend("reference");
    assertEquals(Math.min(16, Math.max(4, 2 * cores)), reference.buffers());
    assertEquals(ScanOptions.defaults().chunkBytes(), reference.chunkBytes());
    assertEquals(ScanOptions.defaults().taskBytes(), reference.taskBytes());
    assertTrue(!reference.stageOnDevice() && !reference.parallelReads());
  }

  @Test
  void aGpuScansSmallTasksOfDeviceCopiesReadInParallel() {
    ScanOptions gpu = ScanOptions.forBackend("cuda");
    assertEquals(new ScanOptions(4L << 20, 4096, 32, true, true, true), gpu);
    assertEquals(32 * 1024, gpu.ringSlots());
  }

  @Test
  void theGpusOfOneJobShareOneGpusBuffersWithSixteenEachAtLeast() {
    assertEquals(ScanOptions.GPU_BUFFERS, ScanOptions.forBackend("cuda", 1).buffers());
    assertEquals(16, ScanOptions.forBackend("cuda", 2).buffers());
    assertEquals(16, ScanOptions.forBackend("cuda", 4).buffers());
    assertEquals(ScanOptions.forBackend("reference"), ScanOptions.forBackend("reference", 2), "the CPU has one kernel");
  }

  @Test
  void hitCapacityIsTheLaunchPolicysForOneChunksTasks() {
    // 64 tasks x (65536 / 256) expected hits x the standard multiplier 2.
    assertEquals(64L * 256 * 2, ScanOptions.defaults().hitCapacity());
    assertEquals(1024, ScanOptions.of(8, 4, 1, true).hitCapacity(), "the policy's minimum");
  }

  @Test
  void chunksRoundUpToWholeTasks() {
    ScanOptions options = ScanOptions.of(10, 4, 2, false);
    assertEquals(12, options.chunkBytes());
    assertEquals(3, options.tasksPerChunk());
    assertEquals(64, options.ringSlots(), "at least 64 slots");
    assertEquals(new ScanOptions(12, 4, 2, true), options.withKeepHits(true));
  }

  @Test
  void rejectsCutsThatDoNotFit() {
    InputException e = assertThrows(InputException.class, () -> new ScanOptions(10, 4, 2, true));
    assertEquals("scan options: chunk size 10 and task size 4 do not fit: a chunk must be 1 byte to 1 GiB and a whole "
        + "number of tasks. Fix: pick a task size of at least 1 byte and a chunk size that is a multiple of it",
        e.getMessage());
    assertThrows(InputException.class, () -> ScanOptions.of(8, 0, 2, true));
    assertThrows(InputException.class, () -> ScanOptions.of(2L << 30, 1 << 20, 2, true));
    assertThrows(InputException.class, () -> ScanOptions.of(8, 4, 0, true));
    assertThrows(InputException.class, () -> ScanOptions.of(8, 4, ScanOptions.MAX_BUFFERS + 1, true));
  }

  /** A task size so small that the tasks in flight outnumber the ring's slots is refused with the smallest that fits. */
  @Test
  void rejectsMoreTasksInFlightThanTheRingHasSlots() {
    InputException e = assertThrows(InputException.class, () -> new ScanOptions(4L << 20, 1, 16, true));
    assertEquals("scan options: task size 1 makes 4194304 tasks of each 4194304-byte chunk, 67108864 in flight with 16"
        + " buffers, more than the ring's 1048576 slots. Fix: use a task size of at least 64 bytes (--task-size), or a"
        + " smaller --chunk-size or fewer --buffers", e.getMessage());
    assertEquals(1 << 20, new ScanOptions(4L << 20, 64, 16, true).ringSlots());
  }

  /** A small job allocates for its input: a 12-byte file with 1 GiB chunks gets one buffer of one task. */
  @Test
  void fittedToTheInputShrinksChunksAndBuffersToWhatTheInputFills() {
    ScanOptions huge = ScanOptions.of(1L << 30, 65536, 32, true);
    ScanOptions tiny = huge.fittedTo(12);
    assertEquals(65536, tiny.chunkBytes());
    assertEquals(1, tiny.buffers());
    assertEquals(65536, tiny.taskBytes());
    ScanOptions listedEmpty = huge.fittedTo(0);
    assertEquals(65536, listedEmpty.chunkBytes(), "a file listed with size 0 (/proc) is read in one-task chunks");
    ScanOptions gpu = ScanOptions.forBackend("cuda");
    assertEquals(3, gpu.fittedTo(3 * gpu.chunkBytes() - 1).buffers(), "three chunks need three buffers");
    assertEquals(gpu, gpu.fittedTo(1L << 30), "a job larger than the buffers keeps the options");
  }

  /** Every file is a task at least: many small files keep whole chunks and every buffer, however few bytes they hold. */
  @Test
  void manySmallFilesAreFittedByTheirCountNotTheirBytes() {
    ScanOptions reference = ScanOptions.forBackend("reference");
    assertEquals(reference, reference.fittedTo(150_000, 15_000), "15,000 files of 10 bytes");
    ScanOptions twenty = reference.fittedTo(200, 20);
    assertEquals(20, twenty.tasksPerChunk(), "twenty files fit one chunk of twenty tasks");
    assertEquals(1, twenty.buffers());
    ScanOptions gpu = ScanOptions.forBackend("cuda");
    assertEquals(2, gpu.fittedTo(2_000_000, 2_000).buffers(), "2,000 files: two chunks of 1,024");
    assertEquals(gpu.fittedTo(12), gpu.fittedTo(12, 1), "one file: fitted by its bytes as before");
  }
}

package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What the host wrote before it published a task is what the task reads (docs/PROTOCOL.md, "What a task sees of the host's writes"):
 * a resource allocated while the kernel runs (a new entry of the resource table) and new contents of a
 * resource written again. On CUDA a worker that read the table or the buffer for an earlier task may hold
 * the old line in its L1, which the host's copies do not reach; the kernel must not read through it.
 * Backend-neutral: scripts/gpu-check.sh runs it on CUDA.
 */
class HostWritesSeenByTasksTest {

  private static final int TASKS = 8192;
  private static final int ROUNDS = 48;

  /** args: 0 input resource, 1 output resource, 2 index: output[index] = input[index] + 1; a fault on a missing resource. */
  private static final int NEXT = 0x241;
  private static final UserOpcode NEXT_OPCODE = UserOpcode.both(NEXT, "next", slot -> {
    MemorySegment input = slot.resource(slot.arg(0));
    MemorySegment output = slot.resource(slot.arg(1));
    Words.set(output, slot.arg(2), Words.get(input, slot.arg(2)) + 1);
    return SlotLayout.STATUS_DONE;
  }, """
      const VyreResource* in = vyre_resource(a, args[0]);
      const VyreResource* out = vyre_resource(a, args[1]);
      unsigned long long end = 4ull * args[2] + 4ull;
      if (in == nullptr || out == nullptr || end > vyre_resource_bytes(in) || end > vyre_resource_bytes(out)) {
        status = VYRE_STATUS_FAULT;
      } else {
        ((unsigned*)out->ptr)[args[2]] = ((const unsigned*)in->ptr)[args[2]] + 1u;
        status = VYRE_STATUS_DONE;
      }
      """);

  @Test
  void everyTaskSeesTheResourcesAndContentsWrittenBeforeItWasPublished() {
    try (Megakernel kernel = Megakernel.builder().backend(TestBackends.selected()).slots(4096).tenants(1).workers(4)
            .singlePriority(Priority.NORMAL).userOpcode(NEXT_OPCODE).publishTimeout(Duration.ofSeconds(30)).bootstrap();
        Arena arena = Arena.ofConfined()) {
      int input = kernel.allocateResource(4L * TASKS, ResourcePlacement.DEVICE);
      MemorySegment words = arena.allocate(4L * TASKS, 4);
      TaskBatch batch = new TaskBatch(512);
      for (int round = 0; round < ROUNDS; round++) {
        for (int t = 0; t < TASKS; t++) {
          Words.set(words, t, round * TASKS + t);
        }
        kernel.writeResource(input, 0, words);
        // A new table entry each round, beside the ones the last rounds' tasks read.
        int output = kernel.allocateResource(4L * TASKS, ResourcePlacement.DEVICE);
        long last = -1;
        for (int t = 0; t < TASKS; t++) {
          batch.add3(0, NEXT, input, output, t);
          if (batch.size() == batch.capacity() || t == TASKS - 1) {
            last = Megakernel.batchTicket(kernel.publish(batch), batch.size() - 1);
            batch.clear();
          }
        }
        assertTrue(kernel.await(last, Duration.ofSeconds(30)), kernel.summary());
        kernel.readResource(output, 0, words);
        int wrong = 0;
        int firstWrong = -1;
        for (int t = 0; t < TASKS; t++) {
          if (Words.get(words, t) != round * TASKS + t + 1) {
            wrong++;
            firstWrong = firstWrong < 0 ? t : firstWrong;
          }
        }
        int shownRound = round;
        int shownTask = firstWrong;
        int shownWrong = wrong;
        assertEquals(0, wrong, () -> "round " + shownRound + ": " + shownWrong + " tasks wrote a wrong word, the first task "
            + shownTask + " " + Words.get(words, shownTask) + "; " + kernel.summary());
      }
    }
  }
}

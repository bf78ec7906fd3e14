package dev.vyre.runtime.wire;

import static dev.vyre.runtime.wire.Wire.seg;
import static dev.vyre.runtime.wire.Wire.setWord;
import static dev.vyre.runtime.wire.Wire.word;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.wire.IoQueueLayout.Completion;
import dev.vyre.runtime.wire.IoQueueLayout.IoCompletion;
import dev.vyre.runtime.wire.IoQueueLayout.IoRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The IO queue (docs/PROTOCOL.md, "IO queue layout"). */
class IoQueueLayoutTest {

  @Test
  void slotsAreEightWordsAndTheWindowIs64() {
    assertEquals(8, IoQueueLayout.SLOT_WORDS);
    assertEquals(64, IoQueueLayout.IO_SLOT_COUNT);
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, new int[] {IoQueueLayout.OP_TYPE, IoQueueLayout.SRC_HANDLE,
        IoQueueLayout.DST_HANDLE, IoQueueLayout.OFFSET_LO, IoQueueLayout.OFFSET_HI, IoQueueLayout.BYTE_COUNT,
        IoQueueLayout.STATUS, IoQueueLayout.TAG});
    assertArrayEquals(new int[] {1, 2, 3, 0x10, 0x11}, new int[] {IoQueueLayout.OP_READ, IoQueueLayout.OP_WRITE,
        IoQueueLayout.OP_FENCE, IoQueueLayout.STATUS_OK, IoQueueLayout.STATUS_ERROR});
    assertEquals(2048, IoQueueLayout.byteLength(64));
  }

  @Test
  void encodeEmptyTakesOneTo64Slots() {
    assertArrayEquals(new byte[32], IoQueueLayout.encodeEmpty(1));
    assertEquals(2048, IoQueueLayout.encodeEmpty(64).length);
    for (int slots : new int[] {0, 65, -1}) {
      assertEquals(PipelineException.Variant.InvalidArgument, assertThrows(PipelineException.class, () -> IoQueueLayout.encodeEmpty(slots)).variant());
    }
  }

  @Test
  void validateRefusesPartialWordsPartialSlotsAndMoreThan64Slots() {
    assertEquals(2, IoQueueLayout.validate(seg(new byte[64])));
    assertEquals(0, IoQueueLayout.validate(seg(new byte[0])));
    PipelineException misaligned = assertThrows(PipelineException.class, () -> IoQueueLayout.validate(seg(new byte[33])));
    assertEquals(PipelineException.Variant.Backend, misaligned.variant());
    assertTrue(misaligned.getMessage().contains("not 4-byte aligned"), misaligned.getMessage());
    PipelineException partial = assertThrows(PipelineException.class, () -> IoQueueLayout.validate(seg(new byte[36])));
    assertEquals(PipelineException.Variant.Backend, partial.variant());
    assertTrue(partial.getMessage().contains("not a multiple of slot size 32"), partial.getMessage());
    PipelineException big = assertThrows(PipelineException.class, () -> IoQueueLayout.validate(seg(new byte[65 * 32])));
    assertEquals(PipelineException.Variant.InvalidArgument, big.variant());
    assertTrue(big.getMessage().contains("exceeds the compiled IO poll window of 64 slots"), big.getMessage());
  }

  private static void request(byte[] queue, int slot, int status, int src, int dst, int lo, int hi, int count, int tag) {
    int[] fields = {IoQueueLayout.OP_READ, src, dst, lo, hi, count, status, tag};
    for (int f = 0; f < 8; f++) {
      setWord(queue, IoQueueLayout.word(slot, f), fields[f]);
    }
  }

  @Test
  void pollReturnsPublishedRequestsWithoutClaiming() {
    byte[] queue = IoQueueLayout.encodeEmpty(4);
    request(queue, 1, SlotLayout.STATUS_PUBLISHED, 7, 9, 0x10, 0x2, -1, 55);
    request(queue, 2, SlotLayout.STATUS_CLAIMED, 1, 1, 1, 1, 1, 1);
    byte[] before = queue.clone();
    List<IoRequest> requests = IoQueueLayout.poll(seg(queue));
    assertEquals(List.of(new IoRequest(1, IoQueueLayout.OP_READ, 7, 9, 0x2_0000_0010L, 0xFFFF_FFFFL, 55)), requests);
    assertArrayEquals(before, queue);
  }

  @Test
  void claimMovesPublishedToClaimedAndASecondClaimReturnsNothing() {
    byte[] queue = IoQueueLayout.encodeEmpty(64);
    request(queue, 0, SlotLayout.STATUS_PUBLISHED, 3, 4, -1, -1, 100, 1);
    request(queue, 63, SlotLayout.STATUS_PUBLISHED, 5, 6, 0, 0, 200, 2);
    List<IoRequest> claimed = IoQueueLayout.claim(seg(queue));
    assertEquals(2, claimed.size());
    assertEquals(-1L, claimed.get(0).offset());
    assertEquals(63, claimed.get(1).slot());
    assertEquals(SlotLayout.STATUS_CLAIMED, word(queue, IoQueueLayout.word(0, IoQueueLayout.STATUS)));
    assertEquals(SlotLayout.STATUS_CLAIMED, word(queue, IoQueueLayout.word(63, IoQueueLayout.STATUS)));
    assertTrue(IoQueueLayout.claim(seg(queue)).isEmpty());
    assertTrue(IoQueueLayout.poll(seg(queue)).isEmpty());
  }

  @Test
  void completeSetsOnlyTheStatusWordOfClaimedRequests() {
    byte[] queue = IoQueueLayout.encodeEmpty(4);
    request(queue, 0, SlotLayout.STATUS_PUBLISHED, 3, 4, 5, 6, 7, 8);
    request(queue, 2, SlotLayout.STATUS_PUBLISHED, 3, 4, 5, 6, 7, 8);
    IoQueueLayout.claim(seg(queue));
    byte[] before = queue.clone();
    IoQueueLayout.complete(seg(queue), List.of(new Completion(0, true), new Completion(2, false)));
    setWord(before, IoQueueLayout.word(0, IoQueueLayout.STATUS), IoQueueLayout.STATUS_OK);
    setWord(before, IoQueueLayout.word(2, IoQueueLayout.STATUS), IoQueueLayout.STATUS_ERROR);
    assertArrayEquals(before, queue);
  }

  @Test
  void completeValidatesEverySlotFirstAndMutatesNothingOnError() {
    byte[] queue = IoQueueLayout.encodeEmpty(4);
    request(queue, 0, SlotLayout.STATUS_PUBLISHED, 3, 4, 5, 6, 7, 8);
    IoQueueLayout.claim(seg(queue));
    byte[] before = queue.clone();
    PipelineException notClaimed = assertThrows(PipelineException.class,
        () -> IoQueueLayout.complete(seg(queue), List.of(new Completion(0, true), new Completion(1, true))));
    assertEquals(PipelineException.Variant.InvalidArgument, notClaimed.variant());
    assertEquals("submission", notClaimed.fields().get("subject"));
    assertTrue(notClaimed.getMessage().contains("completion requires a CLAIMED request"), notClaimed.getMessage());
    assertArrayEquals(before, queue);
    PipelineException outside = assertThrows(PipelineException.class,
        () -> IoQueueLayout.complete(seg(queue), List.of(new Completion(0, true), new Completion(4, true))));
    assertTrue(outside.getMessage().contains("exceeds queue length"), outside.getMessage());
    assertArrayEquals(before, queue);
  }

  @Test
  void submitReadPublishesAReadAtOffsetZeroIntoAnEmptySlot() {
    byte[] queue = IoQueueLayout.encodeEmpty(64);
    setWord(queue, IoQueueLayout.word(5, IoQueueLayout.OFFSET_HI), 77);
    IoQueueLayout.submitRead(seg(queue), 5, 11, 12, 4096, 99);
    assertEquals(List.of(new IoRequest(5, IoQueueLayout.OP_READ, 11, 12, 0, 4096, 99)), IoQueueLayout.poll(seg(queue)));
    PipelineException inFlight = assertThrows(PipelineException.class, () -> IoQueueLayout.submitRead(seg(queue), 5, 1, 1, 1, 1));
    assertEquals(PipelineException.Variant.Busy, inFlight.variant());
    assertTrue(inFlight.getMessage().contains("still in flight"), inFlight.getMessage());
    PipelineException sixtyFifth = assertThrows(PipelineException.class, () -> IoQueueLayout.submitRead(seg(queue), 64, 1, 1, 1, 1));
    assertEquals(PipelineException.Variant.InvalidArgument, sixtyFifth.variant());
  }

  @Test
  void completionIsVisibleUntilTheKernelRecyclesTheSlot() {
    byte[] queue = IoQueueLayout.encodeEmpty(2);
    assertTrue(IoQueueLayout.isRecycled(seg(queue), 1));
    assertEquals(Optional.empty(), IoQueueLayout.completion(seg(queue), 1));
    IoQueueLayout.submitRead(seg(queue), 1, 0, 33, 512, 7);
    assertFalse(IoQueueLayout.isRecycled(seg(queue), 1));
    IoQueueLayout.claim(seg(queue));
    IoQueueLayout.complete(seg(queue), List.of(new Completion(1, true)));
    assertEquals(Optional.of(new IoCompletion(1, 33, 512, 7)), IoQueueLayout.completion(seg(queue), 1));
    setWord(queue, IoQueueLayout.word(1, IoQueueLayout.STATUS), SlotLayout.STATUS_EMPTY);
    assertTrue(IoQueueLayout.isRecycled(seg(queue), 1));
    assertFalse(IoQueueLayout.isRecycled(seg(queue), 2));
    assertEquals(Optional.empty(), IoQueueLayout.completion(seg(queue), -1));
  }

  @Provide
  Arbitrary<byte[]> queues() {
    Arbitrary<Integer> status = Arbitraries.oneOf(Arbitraries.of(0, 1, 2, 3, 0x10, 0x11), Arbitraries.integers());
    Arbitrary<byte[]> structured = Arbitraries.integers().between(0, 66).flatMap(slots ->
        Combinators.combine(Arbitraries.bytes().array(byte[].class).ofSize(slots * 32), status.list().ofSize(slots))
            .as((bytes, statuses) -> {
              for (int s = 0; s < slots; s++) {
                setWord(bytes, IoQueueLayout.word(s, IoQueueLayout.STATUS), statuses.get(s));
              }
              return bytes;
            }));
    return Arbitraries.oneOf(structured, Arbitraries.bytes().array(byte[].class).ofMaxSize(2200));
  }

  @Provide
  Arbitrary<List<Completion>> completions() {
    return Combinators.combine(Arbitraries.integers().between(-2, 70), Arbitraries.of(true, false)).as(Completion::new)
        .list().ofMaxSize(6);
  }

  @Property(tries = 400)
  void hostCallsOnlyThrowTypedErrorsAndRejectedCompletionsMutateNothing(@ForAll("queues") byte[] bytes,
      @ForAll("completions") List<Completion> completions, @ForAll int slot) {
    try (Arena arena = Arena.ofConfined()) {
      for (MemorySegment queue : List.of(seg(bytes.clone()), Wire.nativeCopy(arena, bytes))) {
        Wire.onlyTyped(() -> IoQueueLayout.validate(queue));
        Wire.onlyTyped(() -> IoQueueLayout.poll(queue));
        Wire.onlyTyped(() -> IoQueueLayout.completion(queue, slot % 70));
        Wire.onlyTyped(() -> IoQueueLayout.isRecycled(queue, slot % 70));
        Wire.onlyTyped(() -> IoQueueLayout.claim(queue));
        byte[] beforeComplete = Words.toBytes(queue);
        try {
          IoQueueLayout.complete(queue, completions);
        } catch (PipelineException e) {
          assertArrayEquals(beforeComplete, Words.toBytes(queue));
        }
        Wire.onlyTyped(() -> IoQueueLayout.submitRead(queue, slot % 70, 1, 2, 3, 4));
      }
    }
  }

  @Property(tries = 100)
  void everySubmittedReadIsClaimedOnceAndCompletedOnce(@ForAll("completions") List<Completion> picks) {
    byte[] queue = IoQueueLayout.encodeEmpty(64);
    List<Integer> submitted = new ArrayList<>();
    for (Completion pick : picks) {
      int slot = Math.floorMod(pick.slot(), 64);
      if (!submitted.contains(slot)) {
        IoQueueLayout.submitRead(seg(queue), slot, slot, slot + 1, slot + 2, slot + 3);
        submitted.add(slot);
      }
    }
    List<IoRequest> claimed = IoQueueLayout.claim(seg(queue));
    assertEquals(submitted.stream().sorted().toList(), claimed.stream().map(IoRequest::slot).toList());
    IoQueueLayout.complete(seg(queue), claimed.stream().map(r -> new Completion(r.slot(), r.tag() % 2 == 0)).toList());
    for (int slot : submitted) {
      assertEquals(Optional.of(new IoCompletion(slot, slot + 1, slot + 2, slot + 3)), IoQueueLayout.completion(seg(queue), slot));
    }
    assertTrue(IoQueueLayout.claim(seg(queue)).isEmpty());
  }
}

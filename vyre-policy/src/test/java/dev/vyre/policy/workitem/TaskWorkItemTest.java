package dev.vyre.policy.workitem;

import static dev.vyre.policy.workitem.TaskLayout.FLAG_PAUSED;
import static dev.vyre.policy.workitem.TaskLayout.FLAG_REQUEUE_REQUESTED;
import static dev.vyre.policy.workitem.TaskLayout.FLAG_RESUME_READY;
import static dev.vyre.policy.workitem.TaskLayout.FLAG_YIELDED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.ProtocolException;
import dev.vyre.runtime.wire.RingPublisher.WorkItem;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Map;
import java.util.function.UnaryOperator;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The continuation task item and its transitions (docs/PORTS.md, "Continuation tasks"). */
class TaskWorkItemTest {

  /** An unrelated flag bit that every transition but completed() must keep. */
  private static final int OTHER_FLAG = 1 << 20;

  private static final EnumSet<TaskState> FINAL = EnumSet.of(TaskState.Empty, TaskState.Done, TaskState.Faulted);

  /** Each transition under the action name its error uses. */
  private static final Map<String, UnaryOperator<TaskWorkItem>> TRANSITIONS = Map.of(
      "pause", t -> t.paused(1, 2, 3),
      "resume", TaskWorkItem::resumed,
      "yield", t -> t.yielded(1, 2),
      "requeue", t -> t.requeued(1, 2, TaskPriority.Low),
      "complete", TaskWorkItem::completed,
      "fault", t -> t.faulted(9));

  private static WorkItem item(int opHandle) {
    return new WorkItem(opHandle, 11, 12, 13);
  }

  private static TaskWorkItem ready() {
    return TaskWorkItem.fromWorkItem(1, 0, TaskPriority.Normal, item(10));
  }

  /** A task in {@code state} with every word distinct and some flags set. */
  private static TaskWorkItem inState(TaskState state, int flags) {
    return new TaskWorkItem(state, 101, 102, TaskPriority.Low, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114,
        flags);
  }

  private static TaskWorkItem withCounters(int ageTicks, int requeueCount, int yieldCount) {
    TaskWorkItem t = ready();
    return new TaskWorkItem(t.state(), t.opHandle(), t.tenantId(), t.priority(), t.inputHandle(), t.outputHandle(),
        t.param(), t.continuationPc(), t.continuationData(), t.resumeEpoch(), t.taskId(), t.parentTaskId(), ageTicks,
        requeueCount, yieldCount, t.flags());
  }

  // ---- construction ----

  @Test
  void fromWorkItemIsReadyWithThePayloadAndNothingElse() {
    TaskWorkItem task = TaskWorkItem.fromWorkItem(7, 3, TaskPriority.High, item(99));
    assertEquals(new TaskWorkItem(TaskState.Ready, 99, 3, TaskPriority.High, 11, 12, 13, 0, 0, 0, 7, 0, 0, 0, 0, 0),
        task);
    assertEquals(item(99), task.workItem());
    assertTrue(task.schedulable());
  }

  @Test
  void stateAndPriorityAreRequired() {
    assertThrows(NullPointerException.class,
        () -> new TaskWorkItem(null, 0, 0, TaskPriority.Normal, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    assertThrows(NullPointerException.class,
        () -> new TaskWorkItem(TaskState.Ready, 0, 0, null, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
  }

  // ---- transitions ----

  @Test
  void vyresChainPausesResumesYieldsAndRequeues() {
    TaskWorkItem paused = ready().paused(44, 55, 66);
    assertEquals(TaskState.Paused, paused.state());
    assertEquals(44, paused.continuationPc());
    assertEquals(55, paused.continuationData());
    assertEquals(66, paused.resumeEpoch());
    assertEquals(FLAG_PAUSED, paused.flags() & FLAG_PAUSED);
    assertFalse(paused.schedulable());

    TaskWorkItem yielded = paused.resumed().yielded(77, 88);
    assertEquals(TaskState.Yielded, yielded.state());
    assertEquals(1, yielded.yieldCount());
    assertEquals(FLAG_YIELDED, yielded.flags() & FLAG_YIELDED);
    assertTrue(yielded.schedulable());

    TaskWorkItem requeued = yielded.requeued(99, 100, TaskPriority.Critical);
    assertEquals(TaskState.Requeued, requeued.state());
    assertEquals(TaskPriority.Critical, requeued.priority());
    assertEquals(1, requeued.requeueCount());
    assertEquals(1, requeued.ageTicks());
    assertEquals(FLAG_REQUEUE_REQUESTED, requeued.flags() & FLAG_REQUEUE_REQUESTED);
    assertTrue(requeued.schedulable());
  }

  @Test
  void pausedSetsTheContinuationAndPausedAndClearsResumeReady() {
    TaskWorkItem from = inState(TaskState.Running, FLAG_RESUME_READY | FLAG_YIELDED | OTHER_FLAG);
    assertEquals(new TaskWorkItem(TaskState.Paused, 101, 102, TaskPriority.Low, 104, 105, 106, 1, 2, 3, 110, 111, 112,
        113, 114, FLAG_PAUSED | FLAG_YIELDED | OTHER_FLAG), from.paused(1, 2, 3));
  }

  @Test
  void resumedMakesAPausedTaskReadyAndClearsPausedAndYielded() {
    TaskWorkItem from = inState(TaskState.Paused, FLAG_PAUSED | FLAG_YIELDED | FLAG_REQUEUE_REQUESTED | OTHER_FLAG);
    assertEquals(new TaskWorkItem(TaskState.Ready, 101, 102, TaskPriority.Low, 104, 105, 106, 107, 108, 109, 110, 111,
        112, 113, 114, FLAG_RESUME_READY | FLAG_REQUEUE_REQUESTED | OTHER_FLAG), from.resumed());
  }

  @ParameterizedTest
  @EnumSource(value = TaskState.class, names = {"Paused"}, mode = EnumSource.Mode.EXCLUDE)
  void resumedIsOnlyFromPaused(TaskState state) {
    BackendException error = assertThrows(BackendException.class, () -> inState(state, 0).resumed());
    assertEquals("megakernel task cannot resume from state " + state.name()
        + ". Fix: publish only legal task lifecycle transitions before mutating the task slot.", error.getMessage());
  }

  @Test
  void yieldedSetsTheContinuationCountsAndSetsYielded() {
    TaskWorkItem from = inState(TaskState.Ready, FLAG_PAUSED | OTHER_FLAG);
    assertEquals(new TaskWorkItem(TaskState.Yielded, 101, 102, TaskPriority.Low, 104, 105, 106, 1, 2, 109, 110, 111,
        112, 113, 115, FLAG_PAUSED | FLAG_YIELDED | OTHER_FLAG), from.yielded(1, 2));
  }

  @Test
  void requeuedReplacesThePriorityCountsAgesAndSetsRequeueRequested() {
    TaskWorkItem from = inState(TaskState.Yielded, FLAG_YIELDED | OTHER_FLAG);
    assertEquals(new TaskWorkItem(TaskState.Requeued, 101, 102, TaskPriority.Critical, 104, 105, 106, 1, 2, 109, 110,
        111, 113, 114, 114, FLAG_YIELDED | FLAG_REQUEUE_REQUESTED | OTHER_FLAG),
        from.requeued(1, 2, TaskPriority.Critical));
  }

  @Test
  void completedIsDoneWithNoFlags() {
    TaskWorkItem from = inState(TaskState.Running, FLAG_PAUSED | FLAG_RESUME_READY | OTHER_FLAG);
    assertEquals(new TaskWorkItem(TaskState.Done, 101, 102, TaskPriority.Low, 104, 105, 106, 107, 108, 109, 110, 111,
        112, 113, 114, 0), from.completed());
  }

  @Test
  void faultedKeepsTheFaultCodeInTheContinuationData() {
    TaskWorkItem from = inState(TaskState.Requeued, FLAG_REQUEUE_REQUESTED);
    assertEquals(new TaskWorkItem(TaskState.Faulted, 101, 102, TaskPriority.Low, 104, 105, 106, 107, 0xDEAD, 109, 110,
        111, 112, 113, 114, FLAG_REQUEUE_REQUESTED), from.faulted(0xDEAD));
  }

  @ParameterizedTest
  @EnumSource(value = TaskState.class, names = {"Empty", "Done", "Faulted"}, mode = EnumSource.Mode.EXCLUDE)
  void everyTransitionButResumeWorksFromATransitionableState(TaskState state) {
    TaskWorkItem task = inState(state, 0);
    assertEquals(TaskState.Paused, task.paused(1, 2, 3).state());
    assertEquals(TaskState.Yielded, task.yielded(1, 2).state());
    assertEquals(TaskState.Requeued, task.requeued(1, 2, TaskPriority.Idle).state());
    assertEquals(TaskState.Done, task.completed().state());
    assertEquals(TaskState.Faulted, task.faulted(1).state());
  }

  @ParameterizedTest
  @EnumSource(value = TaskState.class, names = {"Empty", "Done", "Faulted"})
  void noTransitionRewritesAFinalState(TaskState state) {
    TaskWorkItem task = inState(state, 0);
    TRANSITIONS.forEach((action, transition) -> {
      BackendException error = assertThrows(BackendException.class, () -> transition.apply(task), action);
      assertEquals("megakernel task cannot " + action + " from state " + state.name()
          + ". Fix: publish only legal task lifecycle transitions before mutating the task slot.", error.getMessage());
    });
  }

  @Test
  void aCompletedTaskCannotBeRequeued() {
    BackendException error = assertThrows(BackendException.class,
        () -> ready().completed().requeued(1, 2, TaskPriority.High));
    assertTrue(error.getMessage().contains("cannot requeue from state Done"));
  }

  // ---- counters ----

  @Test
  void countersReachU32MaxAndThenRefuse() {
    TaskWorkItem nearMax = withCounters(-2, -2, -2);
    assertEquals(-1, nearMax.yielded(1, 2).yieldCount());
    TaskWorkItem requeued = nearMax.requeued(1, 2, TaskPriority.High);
    assertEquals(-1, requeued.requeueCount());
    assertEquals(-1, requeued.ageTicks());

    assertCounterOverflow("yield_count", () -> withCounters(0, 0, -1).yielded(1, 2));
    assertCounterOverflow("requeue_count", () -> withCounters(0, -1, 0).requeued(1, 2, TaskPriority.High));
    assertCounterOverflow("age_ticks", () -> withCounters(-1, 0, 0).requeued(1, 2, TaskPriority.High));
    // requeue_count is checked before age_ticks.
    assertCounterOverflow("requeue_count", () -> withCounters(-1, -1, 0).requeued(1, 2, TaskPriority.High));
  }

  @Test
  void aFinalStateIsReportedBeforeACounterOverflow() {
    TaskWorkItem done = withCounters(-1, -1, -1).completed();
    assertTrue(assertThrows(BackendException.class, () -> done.yielded(1, 2)).getMessage()
        .contains("cannot yield from state Done"));
  }

  private static void assertCounterOverflow(String counter, Executable transition) {
    BackendException error = assertThrows(BackendException.class, transition);
    assertEquals("megakernel task " + counter + " overflowed u32. "
        + "Fix: drain or shard the task ring before mutating continuation counters.", error.getMessage());
  }

  // ---- words ----

  @Test
  void wordsAreInLayoutOrder() {
    TaskWorkItem task = new TaskWorkItem(TaskState.Requeued, 101, 102, TaskPriority.Idle, 104, 105, 106, 107, 108,
        109, 110, 111, 112, 113, 114, -1);
    int[] words = {6, 101, 102, 4, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, -1};
    assertArrayEquals(words, task.toWords());
    assertEquals(task, TaskWorkItem.fromWords(words));
  }

  @Test
  void fromWordsNeedsSixteenKnownWords() {
    assertThrows(InputException.class, () -> TaskWorkItem.fromWords(new int[15]));
    assertThrows(InputException.class, () -> TaskWorkItem.fromWords(new int[32]));
    int[] words = ready().toWords();
    words[TaskLayout.STATE_WORD] = 8;
    assertTrue(assertThrows(BackendException.class, () -> TaskWorkItem.fromWords(words)).getMessage()
        .contains("unknown state word 8"));
    words[TaskLayout.STATE_WORD] = TaskState.Ready.word();
    words[TaskLayout.PRIORITY_WORD] = 5;
    assertTrue(assertThrows(BackendException.class, () -> TaskWorkItem.fromWords(words)).getMessage()
        .contains("unknown priority word 5"));
  }

  // ---- memory ----

  @Test
  void writesOneLittleEndianSlotAndReadsItBack() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment ring = arena.allocate(TaskLayout.byteLength(3), TaskLayout.TASK_BYTES);
      ring.fill((byte) 0x5A);
      TaskWorkItem task = inState(TaskState.Yielded, 0x0403_0201);
      task.writeTo(ring, 1);
      assertArrayEquals(task.toWords(), ring.asSlice(64, 64).toArray(ValueLayout.JAVA_INT));
      assertEquals(0x01, ring.get(ValueLayout.JAVA_BYTE, 64 + 60));
      assertEquals(0x04, ring.get(ValueLayout.JAVA_BYTE, 64 + 63));
      assertEquals(0x5A5A_5A5A, Words.get(ring, 15));
      assertEquals(0x5A5A_5A5A, Words.get(ring, 32));
      assertEquals(task, TaskWorkItem.readFrom(ring, 1));
    }
  }

  @Test
  void heapSegmentsWorkToo() {
    MemorySegment ring = MemorySegment.ofArray(new byte[(int) TaskLayout.byteLength(2)]);
    TaskWorkItem task = ready().requeued(3, 4, TaskPriority.Critical);
    task.writeTo(ring, 1);
    assertEquals(TaskState.Requeued.word(), Words.get(ring, TaskLayout.word(1, TaskLayout.STATE_WORD)));
    assertEquals(task, TaskWorkItem.readFrom(ring, 1));
    assertEquals(TaskState.Empty, TaskWorkItem.readFrom(ring, 0).state());
  }

  @Test
  void slotsOutsideTheRingAndUnknownStatesAreRefused() {
    MemorySegment ring = MemorySegment.ofArray(new byte[(int) TaskLayout.byteLength(2)]);
    byte[] before = ring.toArray(ValueLayout.JAVA_BYTE);
    assertThrows(ProtocolException.class, () -> ready().writeTo(ring, 2));
    assertThrows(ProtocolException.class, () -> ready().writeTo(ring, -1));
    assertArrayEquals(before, ring.toArray(ValueLayout.JAVA_BYTE));
    assertThrows(ProtocolException.class, () -> TaskWorkItem.readFrom(ring, 2));
    Words.set(ring, TaskLayout.word(1, TaskLayout.STATE_WORD), 99);
    assertTrue(assertThrows(BackendException.class, () -> TaskWorkItem.readFrom(ring, 1)).getMessage()
        .contains("unknown state word 99"));
  }

  // ---- properties ----

  @Property
  void wordsRoundTrip(@ForAll @Size(16) int[] words, @ForAll @IntRange(max = 7) int state,
      @ForAll @IntRange(max = 4) int priority) {
    words[TaskLayout.STATE_WORD] = state;
    words[TaskLayout.PRIORITY_WORD] = priority;
    assertArrayEquals(words, TaskWorkItem.fromWords(words).toWords());
  }

  @Property
  void segmentsRoundTrip(@ForAll @Size(16) int[] words, @ForAll @IntRange(max = 7) int state,
      @ForAll @IntRange(max = 4) int priority, @ForAll @IntRange(max = 3) int slot) {
    words[TaskLayout.STATE_WORD] = state;
    words[TaskLayout.PRIORITY_WORD] = priority;
    TaskWorkItem task = TaskWorkItem.fromWords(words);
    MemorySegment ring = MemorySegment.ofArray(new byte[(int) TaskLayout.byteLength(4)]);
    task.writeTo(ring, slot);
    assertEquals(task, TaskWorkItem.readFrom(ring, slot));
  }

  @Property
  void onlyStateWordsZeroToSevenDecode(@ForAll int stateWord) {
    int[] words = ready().toWords();
    words[TaskLayout.STATE_WORD] = stateWord;
    if (stateWord >= 0 && stateWord <= 7) {
      assertEquals(stateWord, TaskWorkItem.fromWords(words).state().word());
    } else {
      assertThrows(BackendException.class, () -> TaskWorkItem.fromWords(words));
    }
  }
}

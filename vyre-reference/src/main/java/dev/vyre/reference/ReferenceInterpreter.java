package dev.vyre.reference;

import dev.vyre.driver.Unsigned;
import dev.vyre.runtime.dfa.DfaStep;
import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.dfa.PromotedDfa;
import dev.vyre.runtime.spi.OpcodeHandler;
import dev.vyre.runtime.spi.SlotContext;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.PackedSlotCodec;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.WaveGateLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;

/**
 * Executes one claimed slot with the semantics every backend shares (docs/PROTOCOL.md, "Opcodes";
 * docs/DESIGN.md, "Where we differ from vyre"): metrics for opcodes below 32 (once per task,
 * docs/PROTOCOL.md, "Counters both backends keep"), the built-in opcodes, PACKED_SLOT, user
 * handlers, and bounds checks that FAULT the slot before anything is written.
 * Returns the final status; on FAULT the reason is already stored in the slot's priority word. One
 * instance per worker; it is also the {@link SlotContext} handed to Java handlers, so execution
 * allocates nothing.
 */
final class ReferenceInterpreter implements SlotContext {

  private final ReferenceSession session;
  private final MemorySegment control;
  private final MemorySegment ring;
  private final MemorySegment debugLog;
  private final long controlWords;
  private final long debugWords;
  private final ReferenceWorker.OpcodeHandlers handlers;
  private final int[] packedArgs = new int[SlotLayout.ARGS_PER_SLOT];
  /** Metric increments of the current batch, added to the control block by {@link #flushMetrics}. */
  private final int[] metrics = new int[Opcodes.METERED_OPCODES];
  private int slot;
  private int opcode;
  private int tenant;
  /** A handler's {@link #ioRead} asked for more than its tenant's read quota: the task faults. */
  private boolean overReadQuota;

  ReferenceInterpreter(ReferenceSession session, ReferenceWorker.OpcodeHandlers handlers) {
    this.session = session;
    this.control = session.memory().control();
    this.ring = session.memory().ring();
    this.debugLog = session.memory().debugLog();
    this.controlWords = Words.count(control);
    this.debugWords = Words.count(debugLog);
    this.handlers = handlers;
  }

  /**
   * Runs the claimed slot and returns its final status. {@code claimedNow} is false for a
   * continuation's later runs, which are not metered again.
   */
  int execute(int claimedSlot, boolean claimedNow) {
    this.slot = claimedSlot;
    long base = SlotLayout.slotBase(claimedSlot);
    this.opcode = Words.get(ring, base + SlotLayout.OPCODE_WORD);
    this.tenant = Words.get(ring, base + SlotLayout.TENANT_WORD);
    int gate = Words.get(ring, base + SlotLayout.PRIORITY_WORD);
    boolean authorized = authorized(tenant);
    if (authorized && claimedNow) {
      meter(opcode);
    }
    if (WaveGateLayout.isGated(gate)) {
      return executeGated(base, gate, authorized);
    }
    if (!authorized) {
      return fault(FaultReason.TENANT_UNAUTHORIZED);
    }
    return run(base);
  }

  /**
   * A wave task (WaveGateLayout, docs/WAVES.md), in vyre_execute_slot's order: the tenant check;
   * the gate (REQUEUE while the layer before has tasks left, a fault once it failed); the task; then
   * its layer's counter, decremented for every final status and marked FAILED unless DONE.
   */
  private int executeGated(long base, int gate, boolean authorized) {
    MemorySegment table = session.deviceResourceView(WaveGateLayout.handle(gate));
    int own = WaveGateLayout.ownWord(gate);
    if (table != null && own >= Words.count(table)) {
      table = null;
    }
    int status;
    if (!authorized) {
      status = fault(FaultReason.TENANT_UNAUTHORIZED);
    } else if (table == null) {
      return fault(FaultReason.WAVE_GATE_INVALID);
    } else {
      int before = Words.getAcquire(table, own - 1);
      if (before == WaveGateLayout.FAILED) {
        status = fault(FaultReason.WAVE_PREDECESSOR_FAILED);
      } else if (before != 0) {
        return SlotLayout.STATUS_REQUEUE;
      } else {
        status = run(base);
      }
    }
    if (table != null && status != SlotLayout.STATUS_YIELD && status != SlotLayout.STATUS_REQUEUE) {
      // The task's writes happen before the decrement (a volatile read-modify-write), so the next
      // layer's acquire load of a zero count sees them.
      if (status != SlotLayout.STATUS_DONE) {
        Words.getAndBitwiseOr(table, own, WaveGateLayout.FAILED);
      }
      Words.getAndAdd(table, own, -1);
    }
    return status;
  }

  /** Counts one execution of {@code op} in the metrics words, when it is below 32. */
  private void meter(int op) {
    if (Integer.compareUnsigned(op, Opcodes.METERED_OPCODES) < 0) {
      metrics[op]++;
    }
  }

  /** Runs an authorized slot: a packed slot or one operation. */
  private int run(long base) {
    FaultReason fault;
    if (opcode == Opcodes.PACKED_SLOT) {
      fault = executePacked(base);
    } else {
      int status = dispatch(opcode, arg(0), arg(1), arg(2));
      if (status < 0) {
        return fault(FaultReason.of(-status));
      }
      return status;
    }
    return fault == FaultReason.NONE ? SlotLayout.STATUS_DONE : fault(fault);
  }

  /** Adds the batch's metric increments to control words 96..127. */
  void flushMetrics() {
    for (int op = 0; op < metrics.length; op++) {
      if (metrics[op] != 0) {
        Words.getAndAdd(control, ControlLayout.METRICS_BASE + op, metrics[op]);
        metrics[op] = 0;
      }
    }
  }

  private boolean authorized(int tenantId) {
    if (Integer.compareUnsigned(tenantId, ControlLayout.MAX_TENANTS) >= 0) {
      return false;
    }
    long maskWord = Integer.toUnsignedLong(Words.getAcquire(control, ControlLayout.TENANT_BASE)) + tenantId;
    return maskWord < controlWords && Words.getAcquire(control, maskWord) != 0;
  }

  private int fault(FaultReason reason) {
    Words.set(ring, SlotLayout.slotBase(slot) + SlotLayout.PRIORITY_WORD, reason.code());
    return SlotLayout.STATUS_FAULT;
  }

  /**
   * Runs one operation. Returns a slot status (≥ 0), or the negated {@link FaultReason} code when
   * the operation faulted; a fault writes nothing.
   */
  private int dispatch(int op, int arg0, int arg1, int arg2) {
    switch (op) {
      case Opcodes.NOP -> {
        return SlotLayout.STATUS_DONE;
      }
      case Opcodes.STORE_U32 -> {
        if (!inControl(arg1, 1)) {
          return -FaultReason.CONTROL_INDEX_OUT_OF_RANGE.code();
        }
        Words.getAndSet(control, Integer.toUnsignedLong(arg1), arg0);
        return SlotLayout.STATUS_DONE;
      }
      case Opcodes.ATOMIC_ADD -> {
        if (!inControl(arg1, 1)) {
          return -FaultReason.CONTROL_INDEX_OUT_OF_RANGE.code();
        }
        Words.getAndAdd(control, Integer.toUnsignedLong(arg1), arg0);
        return SlotLayout.STATUS_DONE;
      }
      case Opcodes.LOAD_U32 -> {
        long target = ControlLayout.OBSERVABLE_BASE + Integer.toUnsignedLong(arg1);
        if (!inControl(arg0, 1) || target >= controlWords) {
          return -FaultReason.CONTROL_INDEX_OUT_OF_RANGE.code();
        }
        Words.setRelease(control, target, Words.getAcquire(control, Integer.toUnsignedLong(arg0)));
        return SlotLayout.STATUS_DONE;
      }
      case Opcodes.COMPARE_SWAP -> {
        long target = ControlLayout.OBSERVABLE_BASE + Integer.toUnsignedLong(arg0);
        if (!inControl(arg0, 1) || target >= controlWords) {
          return -FaultReason.CONTROL_INDEX_OUT_OF_RANGE.code();
        }
        int previous = Words.compareAndExchange(control, Integer.toUnsignedLong(arg0), arg1, arg2);
        Words.setRelease(control, target, previous);
        return SlotLayout.STATUS_DONE;
      }
      case Opcodes.MEMCPY -> {
        if (!inControl(arg0, Integer.toUnsignedLong(arg2)) || !inControl(arg1, Integer.toUnsignedLong(arg2))) {
          return -FaultReason.CONTROL_INDEX_OUT_OF_RANGE.code();
        }
        long from = Integer.toUnsignedLong(arg0);
        long to = Integer.toUnsignedLong(arg1);
        for (long i = 0; i < Integer.toUnsignedLong(arg2); i++) {
          Words.set(control, to + i, Words.get(control, from + i));
        }
        return SlotLayout.STATUS_DONE;
      }
      case Opcodes.BATCH_FENCE -> {
        if (controlWords <= ControlLayout.OBSERVABLE_BASE) {
          return -FaultReason.CONTROL_INDEX_OUT_OF_RANGE.code();
        }
        Words.getAndAdd(control, ControlLayout.EPOCH, 1);
        Words.setRelease(control, ControlLayout.OBSERVABLE_BASE, arg1);
        return SlotLayout.STATUS_DONE;
      }
      case Opcodes.PRINTF -> {
        long recordBase = Integer.toUnsignedLong(Words.getAndAdd(debugLog, DebugLogLayout.CURSOR_WORD, DebugLogLayout.RECORD_WORDS)) + 1;
        if (recordBase + DebugLogLayout.RECORD_WORDS <= debugWords) {
          Words.set(debugLog, recordBase, arg0);
          Words.set(debugLog, recordBase + 1, arg1);
          Words.set(debugLog, recordBase + 2, arg2);
          Words.set(debugLog, recordBase + 3, (int) SlotLayout.slotBase(slot));
        }
        return SlotLayout.STATUS_DONE;
      }
      case Opcodes.SHUTDOWN -> {
        Words.getAndSet(control, ControlLayout.SHUTDOWN, 1);
        session.wakeAll();
        return SlotLayout.STATUS_DONE;
      }
      case Opcodes.DFA_STEP -> {
        return dfaStep();
      }
      default -> {
        return runHandler(op);
      }
    }
  }

  /**
   * DFA_STEP over the resources its arguments name ({@link DfaStepArgs}); {@link DfaStep} checks
   * every range and writes nothing when it faults. The table's content was validated once, when
   * the host registered it, so only its header is checked here. A promoted table
   * ({@link ReferenceSession#promoteDfaTable}) is scanned from its arrays, with the same results.
   */
  private int dfaStep() {
    MemorySegment input = session.resourceView(arg(DfaStepArgs.INPUT_HANDLE_ARG));
    MemorySegment dfa = session.resourceView(arg(DfaStepArgs.DFA_HANDLE_ARG));
    // A DEVICE resource only: the hit cursor (or counter) is a device atomic on a GPU (DfaStep, "Faults").
    MemorySegment hits = session.deviceResourceView(arg(DfaStepArgs.HIT_HANDLE_ARG));
    if (input == null || dfa == null || hits == null) {
      return -FaultReason.RESOURCE_OUT_OF_RANGE.code();
    }
    long baseOffset = Unsigned.u32(arg(DfaStepArgs.BASE_OFFSET_LO_ARG))
        | (long) arg(DfaStepArgs.BASE_OFFSET_HI_ARG) << 32;
    long offset = Unsigned.u32(arg(DfaStepArgs.INPUT_OFFSET_ARG));
    long length = Unsigned.u32(arg(DfaStepArgs.LENGTH_ARG));
    long reportFrom = Unsigned.u32(arg(DfaStepArgs.REPORT_FROM_ARG));
    int startState = arg(DfaStepArgs.START_STATE_ARG);
    int inputId = arg(DfaStepArgs.INPUT_ID_ARG);
    int mode = arg(DfaStepArgs.MODE_ARG);
    PromotedDfa promoted = session.promotedDfa(arg(DfaStepArgs.DFA_HANDLE_ARG));
    int result;
    if (promoted == null) {
      result = DfaStep.run(input, offset, length, dfa, startState, hits, inputId, baseOffset, reportFrom, mode);
    } else {
      session.promotedTasks.increment();
      result = promoted.run(input, offset, length, startState, hits, inputId, baseOffset, reportFrom, mode);
    }
    return result < 0 ? -DfaStep.faultReason(result).code() : SlotLayout.STATUS_DONE;
  }

  private int runHandler(int op) {
    OpcodeHandler handler = handlers.get(op);
    if (handler == null) {
      return -FaultReason.UNKNOWN_OPCODE.code();
    }
    int previousOpcode = opcode;
    opcode = op;
    overReadQuota = false;
    try {
      int status = handler.execute(this);
      if (overReadQuota) {
        return -FaultReason.TENANT_QUOTA_EXCEEDED.code();
      }
      return switch (status) {
        case SlotLayout.STATUS_DONE, SlotLayout.STATUS_YIELD, SlotLayout.STATUS_REQUEUE, SlotLayout.STATUS_WAIT_IO -> status;
        case SlotLayout.STATUS_FAULT -> -FaultReason.HANDLER_FAILED.code();
        default -> -FaultReason.HANDLER_FAILED.code();
      };
    } catch (RuntimeException e) {
      return -FaultReason.HANDLER_FAILED.code();
    } finally {
      opcode = previousOpcode;
    }
  }

  /**
   * Runs every packed operation whose arguments fit the 12 argument words (docs/DESIGN.md,
   * "PACKED_SLOT"). An operation's arguments run from its offset to the next operation's offset
   * (the last one's to the packed word count); its arg0..arg2 are the first three of them, zero
   * past its own.
   */
  private FaultReason executePacked(long base) {
    for (int i = 0; i < SlotLayout.ARGS_PER_SLOT; i++) {
      packedArgs[i] = Words.get(ring, base + SlotLayout.ARG0_WORD + i);
    }
    int count = PackedSlotCodec.argByte(packedArgs, 0);
    int totalArgs = PackedSlotCodec.argByte(packedArgs, 1);
    int metadata = PackedSlotCodec.metadataWords(count);
    if (metadata > SlotLayout.ARGS_PER_SLOT || metadata + totalArgs > SlotLayout.ARGS_PER_SLOT) {
      return FaultReason.MALFORMED_PACKED_SLOT;
    }
    for (int i = 0; i < count; i++) {
      int op = PackedSlotCodec.argByte(packedArgs, 2 + 2 * i);
      int offset = PackedSlotCodec.argByte(packedArgs, 3 + 2 * i);
      int end = i + 1 < count ? PackedSlotCodec.argByte(packedArgs, 3 + 2 * (i + 1)) : totalArgs;
      if (end < offset || metadata + end > SlotLayout.ARGS_PER_SLOT) {
        return FaultReason.MALFORMED_PACKED_SLOT;
      }
      if (op == Opcodes.DFA_STEP) {
        // DFA_STEP reads eleven argument words of its own slot; a packed operation has at most three.
        return FaultReason.MALFORMED_PACKED_SLOT;
      }
      int first = metadata + offset;
      int own = end - offset;
      meter(op);
      int status = dispatch(op, own > 0 ? packedArgs[first] : 0, own > 1 ? packedArgs[first + 1] : 0, own > 2 ? packedArgs[first + 2] : 0);
      if (status < 0) {
        return FaultReason.of(-status);
      }
    }
    return FaultReason.NONE;
  }

  private boolean inControl(int start, long words) {
    return Integer.toUnsignedLong(start) + words <= controlWords;
  }

  // ---------------------------------------------------------------- SlotContext for Java handlers

  @Override
  public int slot() {
    return slot;
  }

  @Override
  public int opcode() {
    return opcode;
  }

  @Override
  public int tenant() {
    return tenant;
  }

  @Override
  public int arg(int index) {
    return Words.get(ring, SlotLayout.argWord(slot, index));
  }

  @Override
  public void setArg(int index, int value) {
    Words.set(ring, SlotLayout.argWord(slot, index), value);
  }

  @Override
  public MemorySegment control() {
    return control;
  }

  @Override
  public MemorySegment resource(int handle) {
    return session.resourceView(handle);
  }

  @Override
  public int ioRead(int source, int destination, long offset, int byteCount, int tag) {
    int ioSlot = session.ioSlots.take(tenant, source, destination, offset, byteCount, tag);
    if (ioSlot == ReferenceIoSlots.OVER_QUOTA) {
      overReadQuota = true;
      return -1;
    }
    return ioSlot;
  }

  @Override
  public int ioStatus(int ioSlot) {
    return session.ioSlots.status(ioSlot);
  }

  @Override
  public void ioRelease(int ioSlot) {
    session.ioSlots.release(ioSlot);
  }
}

package dev.vyre.observe.telemetry;

import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.PipelineException;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelLaunchRecommendation;
import dev.vyre.policy.MegakernelLaunchRequest;
import dev.vyre.policy.PriorityRequeueAccounting;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.MemorySegment;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * One structured snapshot of a megakernel's control block and ring (vyre's {@code RingTelemetry}):
 * the control view, slot counts per status, every slot, and ticketed route windows. Decoders fill a
 * new instance or caller-owned storage; the derived views (runtime counters, watchdog, sketches,
 * priority accounting, launch recommendation) are computed from it without touching the device.
 *
 * <p>Strict decoders ({@code try*}) throw vyre's {@code PipelineError::Backend} and leave the
 * output untouched; the others mirror vyre's panicking convenience decoders and throw the same
 * error wrapped in vyre's panic text. Not thread-safe: decode into one instance from one thread.
 */
public final class RingTelemetry {

  /** Words kept per slot: status, tenant, opcode, arg0, arg1, arg2. */
  private static final int STRIDE = 6;
  private static final int UNKNOWN_BUCKET = SlotLayout.STATUS_FAULT + 1;
  /** vyre's literal hot-window demand threshold for {@code recommend_launch} (a kept quirk). */
  private static final long HOT_WINDOW_SLOTS = 4;

  private final ControlSnapshot control = new ControlSnapshot();
  private RingOccupancy occupancy = RingOccupancy.EMPTY;
  private int[] slotWords = new int[0];
  private int slotCount;
  private static final int WINDOW_STRIDE = WindowGrouper.STRIDE;
  private int[] windowWords = new int[0];
  private int windowCount;
  private final List<WindowTelemetry> windowView = new WindowView();
  private final int[] statusCounts = new int[UNKNOWN_BUCKET + 1];
  private final List<RingSlotSnapshot> slotView = new SlotView();

  /** An empty snapshot (vyre's {@code Default}): no slots, zero control. */
  public RingTelemetry() {}

  // ---------------------------------------------------------------- lenient decoders

  /** Decodes without route windows; throws vyre's panic text on malformed buffers. */
  public static RingTelemetry decode(byte[] control, byte[] ring) {
    return decodeWithWindowOpcodes(control, ring, new int[0]);
  }

  /** Decodes and groups slots whose opcode is in {@code windowOpcodes}; throws vyre's panic text on malformed buffers. */
  public static RingTelemetry decodeWithWindowOpcodes(byte[] control, byte[] ring, int[] windowOpcodes) {
    RingTelemetry out = new RingTelemetry();
    decodeWithWindowOpcodesInto(control, ring, windowOpcodes, out, new TelemetryDecodeScratch());
    return out;
  }

  /**
   * Decodes into caller-owned telemetry and scratch and returns their capacity evidence; throws
   * vyre's panic text on malformed buffers.
   */
  public static TelemetryDecodeCapacityEvidence decodeWithWindowOpcodesInto(byte[] control, byte[] ring,
      int[] windowOpcodes, RingTelemetry out, TelemetryDecodeScratch scratch) {
    try {
      return tryDecodeWithWindowOpcodesInto(control, ring, windowOpcodes, out, scratch);
    } catch (PipelineException e) {
      throw TelemetryErrors.ringDecodeFailed(e);
    }
  }

  // ---------------------------------------------------------------- strict decoders

  /**
   * Strictly decodes without route windows.
   *
   * @throws PipelineException ({@code Backend}) when the control buffer is shorter than 640 bytes
   *     or not word-aligned (checked first), or the ring is not a whole number of 64-byte slots
   */
  public static RingTelemetry tryDecode(byte[] control, byte[] ring) {
    return tryDecodeWithWindowOpcodes(control, ring, new int[0]);
  }

  /** Strictly decodes and groups route windows; see {@link #tryDecode}. */
  public static RingTelemetry tryDecodeWithWindowOpcodes(byte[] control, byte[] ring, int[] windowOpcodes) {
    RingTelemetry out = new RingTelemetry();
    tryDecodeWithWindowOpcodesInto(control, ring, windowOpcodes, out, new TelemetryDecodeScratch());
    return out;
  }

  /**
   * Strictly decodes into caller-owned storage and returns its capacity evidence; on error {@code out}
   * is left untouched. See {@link #tryDecode}.
   */
  public static TelemetryDecodeCapacityEvidence tryDecodeWithWindowOpcodesInto(byte[] control, byte[] ring,
      int[] windowOpcodes, RingTelemetry out, TelemetryDecodeScratch scratch) {
    return tryDecodeWithWindowOpcodesInto(MemorySegment.ofArray(control), MemorySegment.ofArray(ring), windowOpcodes, out, scratch);
  }

  /**
   * Strictly decodes any segments, live kernel memory included (a racing writer yields a mix of
   * old and new words, as a copy would). Once the storage has grown to the ring, a decode
   * allocates nothing per slot or window.
   *
   * @param windowOpcodes opcodes (u32 bit patterns) whose slots are grouped into route windows;
   *     order and duplicates do not matter, empty disables grouping
   * @return what was decoded and the capacities of {@code out} and {@code scratch} afterwards
   */
  public static TelemetryDecodeCapacityEvidence tryDecodeWithWindowOpcodesInto(MemorySegment control,
      MemorySegment ring, int[] windowOpcodes, RingTelemetry out, TelemetryDecodeScratch scratch) {
    validate(control, ring);
    ControlSnapshot.tryDecodeInto(control, out.control);
    out.decodeSlots(ring, windowOpcodes, scratch);
    return new TelemetryDecodeCapacityEvidence(TelemetryDecodeCapacityEvidence.SCHEMA_VERSION, out.slotCount,
        out.windowCount, out.slotWords.length / STRIDE, out.windowWords.length / WINDOW_STRIDE,
        scratch.windowOpcodeCapacity(), scratch.windowAccumulatorCapacity(), true);
  }

  private static void validate(MemorySegment control, MemorySegment ring) {
    ControlSnapshot.validate(control.byteSize());
    long ringBytes = ring.byteSize();
    if (ringBytes % SlotLayout.SLOT_BYTES != 0) {
      throw TelemetryErrors.ringSnapshot(ringBytes);
    }
    long slots = ringBytes / SlotLayout.SLOT_BYTES;
    if (slots > Unsigned.U32_MAX) {
      throw TelemetryErrors.ringAboveU32(slots);
    }
    if (slots > SlotLayout.MAX_RING_SLOTS) {
      throw TelemetryErrors.ringAboveMaxSlots(slots);
    }
  }

  private void decodeSlots(MemorySegment ring, int[] windowOpcodes, TelemetryDecodeScratch scratch) {
    int slots = (int) (ring.byteSize() / SlotLayout.SLOT_BYTES);
    if (slotWords.length < slots * STRIDE) {
      slotWords = new int[slots * STRIDE];
    }
    Arrays.fill(statusCounts, 0);
    WindowOpcodeMatcher matcher = scratch.matcher;
    WindowGrouper grouper = scratch.windows;
    matcher.configure(windowOpcodes);
    grouper.clear();
    boolean grouping = matcher.isEnabled();
    if (grouping) {
      grouper.reserve(slots);
    }
    int[] words = slotWords;
    for (int slot = 0, at = 0; slot < slots; slot++, at += STRIDE) {
      long base = (long) slot * SlotLayout.SLOT_WORDS;
      int status = Words.get(ring, base + SlotLayout.STATUS_WORD);
      int opcode = Words.get(ring, base + SlotLayout.OPCODE_WORD);
      int tenant = Words.get(ring, base + SlotLayout.TENANT_WORD);
      int arg0 = Words.get(ring, base + SlotLayout.ARG0_WORD);
      int arg1 = Words.get(ring, base + SlotLayout.ARG0_WORD + 1);
      int arg2 = Words.get(ring, base + SlotLayout.ARG0_WORD + 2);
      statusCounts[status >= 0 && status < UNKNOWN_BUCKET ? status : UNKNOWN_BUCKET]++;
      if (grouping && matcher.matches(opcode)) {
        // arg0 is the window ticket, arg1 its class tag (0 required, 1 lookahead).
        grouper.add(arg0, opcode, tenant, arg1, status);
      }
      words[at] = status;
      words[at + 1] = tenant;
      words[at + 2] = opcode;
      words[at + 3] = arg0;
      words[at + 4] = arg1;
      words[at + 5] = arg2;
    }
    slotCount = slots;
    occupancy = new RingOccupancy(count(SlotLayout.STATUS_EMPTY), count(SlotLayout.STATUS_PUBLISHED),
        count(SlotLayout.STATUS_CLAIMED), count(SlotLayout.STATUS_DONE), count(SlotLayout.STATUS_WAIT_IO),
        count(SlotLayout.STATUS_YIELD), count(SlotLayout.STATUS_REQUEUE), count(SlotLayout.STATUS_FAULT),
        count(UNKNOWN_BUCKET));
    copyWindows(grouper);
  }

  /** Copies the grouped windows, so the scratch can serve the next decode. */
  private void copyWindows(WindowGrouper grouper) {
    int[] grouped = grouper.group();
    int count = grouper.windowCount();
    if (windowWords.length < count * WINDOW_STRIDE) {
      windowWords = new int[count * WINDOW_STRIDE];
    }
    System.arraycopy(grouped, 0, windowWords, 0, count * WINDOW_STRIDE);
    windowCount = count;
  }

  private long count(int bucket) {
    return Integer.toUnsignedLong(statusCounts[bucket]);
  }

  // ---------------------------------------------------------------- decoded views

  public ControlSnapshot control() {
    return control;
  }

  public RingOccupancy occupancy() {
    return occupancy;
  }

  public int slotCount() {
    return slotCount;
  }

  /** Slot {@code i} as a record (built on each call). */
  public RingSlotSnapshot slot(int i) {
    Objects.checkIndex(i, slotCount);
    int at = i * STRIDE;
    int[] words = slotWords;
    return new RingSlotSnapshot(i, RingStatus.of(words[at]), Integer.toUnsignedLong(words[at + 1]),
        Integer.toUnsignedLong(words[at + 2]), Integer.toUnsignedLong(words[at + 3]),
        Integer.toUnsignedLong(words[at + 4]), Integer.toUnsignedLong(words[at + 5]));
  }

  /** Raw status word of slot {@code i}, for allocation-free scans. */
  public int slotStatusRaw(int i) {
    Objects.checkIndex(i, slotCount);
    return slotWords[i * STRIDE];
  }

  /** Opcode (u32 bit pattern) of slot {@code i}, for allocation-free scans. */
  public int slotOpcode(int i) {
    Objects.checkIndex(i, slotCount);
    return slotWords[i * STRIDE + 2];
  }

  /** Tenant id (u32 bit pattern) of slot {@code i}, for allocation-free scans. */
  public int slotTenant(int i) {
    Objects.checkIndex(i, slotCount);
    return slotWords[i * STRIDE + 1];
  }

  /** Every slot in index order, as a read-only view over this snapshot (valid until the next decode into it). */
  public List<RingSlotSnapshot> slots() {
    return slotView;
  }

  public int windowCount() {
    return windowCount;
  }

  /** Route window {@code i} in (ticket, opcode) order, as a record (built on each call). */
  public WindowTelemetry window(int i) {
    Objects.checkIndex(i, windowCount);
    int at = i * WINDOW_STRIDE;
    return new WindowTelemetry(windowWord(at + WindowGrouper.TICKET), windowWord(at + WindowGrouper.TENANT),
        windowWord(at + WindowGrouper.OPCODE), windowWord(at + WindowGrouper.REQUIRED),
        windowWord(at + WindowGrouper.LOOKAHEAD), windowStatus(at, SlotLayout.STATUS_PUBLISHED),
        windowStatus(at, SlotLayout.STATUS_CLAIMED), windowStatus(at, SlotLayout.STATUS_DONE),
        windowStatus(at, SlotLayout.STATUS_WAIT_IO), windowStatus(at, SlotLayout.STATUS_YIELD),
        windowStatus(at, SlotLayout.STATUS_REQUEUE), windowStatus(at, SlotLayout.STATUS_FAULT));
  }

  private long windowWord(int index) {
    return Integer.toUnsignedLong(windowWords[index]);
  }

  private long windowStatus(int at, int status) {
    return windowWord(at + WindowGrouper.STATUS_BASE + status);
  }

  /** Route windows sorted by (ticket, opcode), as a read-only view (valid until the next decode into this snapshot). */
  public List<WindowTelemetry> windows() {
    return windowView;
  }

  // ---------------------------------------------------------------- queries

  /** Active slots (see {@link RingStatus#isActive()}) whose opcode is {@code opcode} (u32 bit pattern). */
  public List<RingSlotSnapshot> activeSlotsForOpcode(int opcode) {
    List<RingSlotSnapshot> out = new ArrayList<>();
    activeSlotsForOpcodeInto(opcode, out);
    return out;
  }

  /** {@link #activeSlotsForOpcode} into caller-owned storage, which is cleared first. */
  public void activeSlotsForOpcodeInto(int opcode, List<RingSlotSnapshot> out) {
    out.clear();
    for (int i = 0; i < slotCount; i++) {
      int at = i * STRIDE;
      if (slotWords[at + 2] == opcode && RingStatus.isActiveRaw(slotWords[at])) {
        out.add(slot(i));
      }
    }
  }

  /** Unfinished route windows (see {@link WindowTelemetry#isActive()}). */
  public List<WindowTelemetry> activeWindows() {
    List<WindowTelemetry> out = new ArrayList<>();
    activeWindowsInto(out);
    return out;
  }

  /** {@link #activeWindows} into caller-owned storage, which is cleared first. */
  public void activeWindowsInto(List<WindowTelemetry> out) {
    out.clear();
    for (int i = 0; i < windowCount; i++) {
      WindowTelemetry window = window(i);
      if (window.isActive()) {
        out.add(window);
      }
    }
  }

  /** Requeue pressure visible in this snapshot: REQUEUE slots; aging is not visible in the ring (vyre's {@code priority_accounting}). */
  public PriorityRequeueAccounting priorityAccounting() {
    return new PriorityRequeueAccounting(occupancy.requeue(), 0, 0);
  }

  /** Queue, idle, fairness and drain counters of this snapshot (vyre's {@code runtime_counters}). */
  public MegakernelRuntimeCounters runtimeCounters() {
    return MegakernelRuntimeCounters.of(this);
  }

  /**
   * Persistent-kernel health between {@code previous} and this snapshot (vyre's
   * {@code health_since}): a stall is suspected when work is queued, nothing finished, and nothing faulted.
   *
   * @throws PipelineException ({@code Backend}) when DONE_COUNT moved backwards (a reset or u32
   *     wrap): start a new telemetry epoch then
   */
  public MegakernelWatchdogSnapshot healthSince(RingTelemetry previous) {
    return MegakernelWatchdogSnapshot.between(previous, this);
  }

  /**
   * Feeds this snapshot into {@link MegakernelLaunchPolicy#standard()} (vyre's {@code recommend_launch}):
   * graph nodes, edges and frontier density default to the ring's slots, queue depth and density
   * where the request leaves them 0; the hot opcode and hot window counts are <em>replaced</em> by the
   * non-zero metrics and the windows of at least 4 slots; REQUEUE slots are added to the requeue count.
   *
   * @throws BackendException {@code Other} when the requeue count overflows u64, or whatever the
   *     policy raises for the filled request (zero adapter limits, {@code DeviceOutOfMemory})
   */
  public MegakernelLaunchRecommendation recommendLaunch(MegakernelLaunchRequest request) {
    MegakernelRuntimeCounters counters = runtimeCounters();
    MegakernelLaunchRequest.Builder filled = request.toBuilder();
    if (request.graphNodeCount() == 0) {
      filled.graphNodeCount(counters.totalSlots());
    }
    if (request.graphEdgeCount() == 0) {
      filled.graphEdgeCount(counters.queueDepth());
    }
    if (request.frontierDensityBps() == 0) {
      filled.frontierDensityBps(counters.frontierDensityBps());
    }
    filled.hotOpcodeCount(control.metricCount());
    long hotWindows = 0;
    for (int at = 0; at < windowCount * WINDOW_STRIDE; at += WINDOW_STRIDE) {
      // Slot counts per window cannot exceed the ring's u32 slot count, so the sum cannot overflow here.
      if (windowWord(at + WindowGrouper.REQUIRED) + windowWord(at + WindowGrouper.LOOKAHEAD) >= HOT_WINDOW_SLOTS) {
        hotWindows++;
      }
    }
    filled.hotWindowCount(hotWindows);
    if (Unsigned.addOverflows(request.requeueCount(), occupancy.requeue())) {
      throw TelemetryErrors.requeueOverflow();
    }
    filled.requeueCount(request.requeueCount() + occupancy.requeue());
    return MegakernelLaunchPolicy.standard().recommend(filled.build());
  }

  /** Count-min sketches of this snapshot with {@code depth} rows of {@code width} counters. */
  public SketchTelemetry sketch(int depth, int width) {
    SketchTelemetry out = new SketchTelemetry();
    sketchInto(depth, width, out);
    return out;
  }

  /** {@link #sketch} into caller-owned sketches, reusing their counter storage. */
  public void sketchInto(int depth, int width, SketchTelemetry out) {
    out.rebuild(this, depth, width);
  }

  /** Read-only list view over the decoded window words. */
  private final class WindowView extends AbstractList<WindowTelemetry> implements RandomAccess {
    @Override
    public WindowTelemetry get(int index) {
      return window(index);
    }

    @Override
    public int size() {
      return windowCount;
    }
  }

  /** Read-only list view over the decoded slot words. */
  private final class SlotView extends AbstractList<RingSlotSnapshot> implements RandomAccess {
    @Override
    public RingSlotSnapshot get(int index) {
      return slot(index);
    }

    @Override
    public int size() {
      return slotCount;
    }
  }
}

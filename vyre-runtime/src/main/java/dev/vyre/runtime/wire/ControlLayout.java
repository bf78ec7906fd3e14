package dev.vyre.runtime.wire;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.driver.error.ProtocolException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Layout of the control block (docs/PROTOCOL.md, "Control block"): 160 words of protocol state
 * followed by the observable words. Words 0..140 are vyre's; the reserved words 141..159 hold what
 * vyre lacks and a live kernel needs, each documented at its constant.
 */
public final class ControlLayout {

  public static final int SHUTDOWN = 0;
  public static final int DONE_COUNT = 1;
  /** Holds a pointer: the word index where the tenant-mask table starts (the encoder writes 3). */
  public static final int TENANT_BASE = 2;
  public static final int TENANT_TABLE_START = 3;
  /** Tenant ids 0..28: ids at or above 29 would alias the quota table (docs/DESIGN.md, "Tenant ids"). */
  public static final int MAX_TENANTS = 29;
  /**
   * vyre's tenant quota table, one word per tenant from here, which vyre writes and never reads. Ours
   * holds tenant t's read quota ({@link #tenantQuotaWord}); entry 29, which no tenant id reaches,
   * counts refusals ({@link #TENANT_QUOTA_REFUSALS}).
   */
  public static final int TENANT_QUOTA_BASE = 32;
  /** What vyre's encoder writes into each quota word ({@link #encode}); a live kernel starts with {@link #NO_READ_QUOTA}. */
  public static final int TENANT_QUOTA = 1_000_000;
  /** A read quota word holding this sets no bound (u32::MAX; docs/PROTOCOL.md, "Tenant quotas"). */
  public static final int NO_READ_QUOTA = 0xFFFF_FFFF;
  /**
   * Reads the kernel refused for their tenant's read quota, held or faulted (docs/PROTOCOL.md,
   * "Tenant quotas"): ours, in the quota table's entry for id 29, which no tenant has.
   */
  public static final int TENANT_QUOTA_REFUSALS = TENANT_QUOTA_BASE + MAX_TENANTS;
  public static final int TENANT_FAIRNESS_BASE = 64;
  public static final int TENANT_FAIRNESS_SLOTS = 32;
  public static final int METRICS_BASE = 96;
  public static final int METRICS_SLOTS = 32;
  public static final int EPOCH = 128;
  public static final int PRIORITY_OFFSETS_BASE = 129;
  public static final int PRIORITY_OFFSETS_SLOTS = 6;
  public static final int PRIORITY_STARVATION_COUNTER = 135;
  public static final int PRIORITY_FAIRNESS_BASE = 136;
  public static final int PRIORITY_FAIRNESS_SLOTS = 5;
  public static final int PRIORITY_LEVELS = 5;
  public static final int STARVATION_THRESHOLD = 16;
  public static final int TENANT_FAIRNESS_THRESHOLD = 64;

  /**
   * Doorbells, one u32 per priority level (words 141..145): how many slots the host has published
   * into that level's partition, modulo 2^32. The kernel polls these five words instead of every
   * slot status, and only ever looks at slots below the doorbell (docs/DESIGN.md, "A live
   * persistent kernel").
   */
  public static final int PUBLISH_SEQ_BASE = 141;
  /**
   * Claim cursors, one u64 per priority level in word pairs 146..155 (8-byte aligned): how many
   * slots of the partition the kernel has claimed. Slot of ticket t = partition start + t mod length.
   * A backend may keep its working copy elsewhere (device memory) and mirror it here.
   */
  public static final int CLAIM_SEQ_BASE = 146;
  /** Slots that finished as FAULT (bounds, tenant, unknown opcode), counted by the kernel. */
  public static final int FAULT_COUNT = 156;
  /** Incremented by the kernel while it runs, also when idle, so a watchdog can tell idle from hung. */
  public static final int HEARTBEAT = 157;
  /** Kernel lifecycle: 0 not started, 1 running, 2 exited. */
  public static final int KERNEL_STATE = 158;
  /** Continuations: slots a handler finished as YIELD or REQUEUE that the kernel re-ran. */
  public static final int CONTINUATION_COUNT = 159;

  public static final int KERNEL_STATE_RUNNING = 1;
  public static final int KERNEL_STATE_EXITED = 2;

  public static final int CONTROL_MIN_WORDS = 160;
  public static final int OBSERVABLE_BASE = 160;
  public static final long MAX_OBSERVABLE_SLOTS = 0xFFFF_FFFFL - OBSERVABLE_BASE;
  public static final int MAX_ENCODED_OBSERVABLE_SLOTS = 1_048_576;

  private static final String BUFFER = "control";
  private static final String READ_FIX = "read back the whole control buffer (at least 640 bytes, a multiple of 4)";

  private ControlLayout() {}

  public static int tenantMaskWord(int tenant) {
    return TENANT_TABLE_START + tenant;
  }

  /** Refuses a tenant id outside the 29-entry mask table: higher ids alias other control words. */
  public static void checkTenant(int tenant) {
    if (tenant < 0 || tenant >= MAX_TENANTS) {
      throw PipelineException.invalidArgument("tenant", "tenant id " + Integer.toUnsignedString(tenant) + " is outside 0..28",
          "publish with a tenant id below 29; ids at or above 29 would alias other control words (docs/DESIGN.md, 'Tenant ids')");
    }
  }

  /**
   * Tenant {@code tenant}'s read quota (ours): the most bytes the reads its tasks ask for
   * (docs/PROTOCOL.md, "Reads a task asks for") may have in flight at once; {@link #NO_READ_QUOTA}
   * for none. Host-written; the kernel checks it whenever such a task asks.
   */
  public static int tenantQuotaWord(int tenant) {
    return TENANT_QUOTA_BASE + tenant;
  }

  /** The read quota word for a bound of {@code maxBytes} (u64): the bound, or {@link #NO_READ_QUOTA} from u32::MAX up. */
  public static int readQuotaWord(long maxBytes) {
    return Long.compareUnsigned(maxBytes, Integer.toUnsignedLong(NO_READ_QUOTA)) >= 0 ? NO_READ_QUOTA : (int) maxBytes;
  }

  /** Sets every tenant's read quota to {@link #NO_READ_QUOTA}: how a live kernel starts. */
  public static void clearReadQuotas(MemorySegment control) {
    for (int t = 0; t < MAX_TENANTS; t++) {
      Words.set(control, tenantQuotaWord(t), NO_READ_QUOTA);
    }
  }

  public static int metricWord(int opcode) {
    return METRICS_BASE + opcode;
  }

  public static int observableWord(long index) {
    return (int) (OBSERVABLE_BASE + index);
  }

  public static int publishSeqWord(int priority) {
    return PUBLISH_SEQ_BASE + priority;
  }

  public static int claimSeqWord(int priority) {
    return CLAIM_SEQ_BASE + 2 * priority;
  }

  /** Control byte length for {@code observableSlots}, or -1 past {@link #MAX_OBSERVABLE_SLOTS}. */
  public static long byteLength(long observableSlots) {
    if (observableSlots < 0 || observableSlots > MAX_OBSERVABLE_SLOTS) {
      return -1;
    }
    return 4 * (CONTROL_MIN_WORDS + observableSlots);
  }

  /** vyre's {@code encode_control}: a fresh control block as bytes. */
  public static byte[] encode(boolean shutdown, long tenantCount, long observableSlots) {
    checkObservables(observableSlots);
    byte[] bytes = new byte[(int) byteLength(observableSlots)];
    writeInitial(MemorySegment.ofArray(bytes), shutdown, tenantCount);
    return bytes;
  }

  /**
   * Clears {@code control} and writes the initial protocol words (shutdown flag, tenant pointer,
   * masks for tenants below min(tenantCount, 29), quotas). The segment must already have the size
   * of {@link #byteLength}.
   */
  public static void encodeInto(MemorySegment control, boolean shutdown, long tenantCount) {
    if (control.byteSize() < 4L * CONTROL_MIN_WORDS || control.byteSize() % 4 != 0) {
      throw PipelineException.invalidArgument("submission", "control buffer of " + control.byteSize() + " bytes is too small",
          "allocate ControlLayout.byteLength(observables) bytes");
    }
    control.fill((byte) 0);
    writeInitial(control, shutdown, tenantCount);
  }

  private static void writeInitial(MemorySegment control, boolean shutdown, long tenantCount) {
    Words.set(control, SHUTDOWN, shutdown ? 1 : 0);
    Words.set(control, TENANT_BASE, TENANT_TABLE_START);
    long masks = Math.min(Math.max(tenantCount, 0), MAX_TENANTS);
    for (int t = 0; t < masks; t++) {
      Words.set(control, tenantMaskWord(t), -1);
    }
    long quotaEnd = Math.min(TENANT_QUOTA_BASE + Math.max(tenantCount, 0), TENANT_FAIRNESS_BASE);
    for (int w = TENANT_QUOTA_BASE; w < quotaEnd; w++) {
      Words.set(control, w, TENANT_QUOTA);
    }
  }

  private static void checkObservables(long observableSlots) {
    if (observableSlots < 0 || observableSlots > MAX_ENCODED_OBSERVABLE_SLOTS) {
      throw PipelineException.invalidArgument("submission",
          "observable_slots " + observableSlots + " exceeds the megakernel allocation cap of " + MAX_ENCODED_OBSERVABLE_SLOTS,
          "shard observable results or reduce observable_slots to the megakernel allocation cap before encoding control");
    }
  }

  /** vyre's {@code default_priority_offsets_array}: total/5 slots per level, the remainder to NORMAL. */
  public static int[] defaultPriorityOffsets(int totalSlots) {
    int base = totalSlots / PRIORITY_LEVELS;
    int rem = totalSlots % PRIORITY_LEVELS;
    int[] offsets = new int[PRIORITY_OFFSETS_SLOTS];
    for (int p = 0; p < PRIORITY_LEVELS; p++) {
      offsets[p + 1] = offsets[p] + base + (p == 2 ? rem : 0);
    }
    return offsets;
  }

  /** Writes the six partition offsets (five starts and the total) into words 129..134 only. */
  public static void writePriorityOffsets(MemorySegment control, int[] offsets) {
    if (offsets.length != PRIORITY_OFFSETS_SLOTS) {
      throw PipelineException.invalidArgument("submission", offsets.length + " priority offsets instead of " + PRIORITY_OFFSETS_SLOTS,
          "pass one start per priority level followed by the total slot count");
    }
    if (control.byteSize() % 4 != 0 || control.byteSize() < 4L * (PRIORITY_OFFSETS_BASE + PRIORITY_OFFSETS_SLOTS)) {
      throw PipelineException.invalidArgument("submission", "control buffer of " + control.byteSize() + " bytes cannot hold priority offsets",
          "pass a full control buffer");
    }
    for (int i = 0; i < PRIORITY_OFFSETS_SLOTS; i++) {
      Words.set(control, PRIORITY_OFFSETS_BASE + i, offsets[i]);
    }
  }

  // ---- strict readers (vyre's try_*): typed errors on malformed buffers ----

  /** The word at {@code index}, or a {@link ProtocolException} naming what is wrong. */
  public static long tryReadWord(MemorySegment control, long index) {
    long len = control.byteSize();
    if (len % 4 != 0) {
      throw ProtocolException.misalignedByteLength(BUFFER, len, READ_FIX);
    }
    if (index < 0 || index >= len / 4) {
      throw ProtocolException.missingWord(BUFFER, index, len, READ_FIX);
    }
    return Integer.toUnsignedLong(Words.get(control, index));
  }

  public static long tryReadDoneCount(MemorySegment control) {
    return tryReadWord(control, DONE_COUNT);
  }

  public static long tryReadEpoch(MemorySegment control) {
    return tryReadWord(control, EPOCH);
  }

  public static long tryReadObservable(MemorySegment control, long index) {
    if (index < 0 || index > MAX_OBSERVABLE_SLOTS) {
      throw ProtocolException.byteLengthOverflow(BUFFER, "observable index overflows the protocol word offset; shard observable reads");
    }
    return tryReadWord(control, OBSERVABLE_BASE + index);
  }

  /** Non-zero metric counters as (opcode, count) pairs; needs all of words 96..127. */
  public static List<long[]> tryReadMetrics(MemorySegment control) {
    tryReadWord(control, METRICS_BASE + METRICS_SLOTS - 1);
    return readMetrics(control);
  }

  // ---- lenient readers: 0 / empty on malformed buffers ----

  public static long readWord(MemorySegment control, long index) {
    long len = control.byteSize();
    return len % 4 == 0 && index >= 0 && index < len / 4 ? Integer.toUnsignedLong(Words.get(control, index)) : 0;
  }

  public static long readDoneCount(MemorySegment control) {
    return readWord(control, DONE_COUNT);
  }

  public static long readEpoch(MemorySegment control) {
    return readWord(control, EPOCH);
  }

  public static long readObservable(MemorySegment control, long index) {
    return index < 0 || index > MAX_OBSERVABLE_SLOTS ? 0 : readWord(control, OBSERVABLE_BASE + index);
  }

  /** Decodes whatever prefix of the metrics window exists. */
  public static List<long[]> readMetrics(MemorySegment control) {
    List<long[]> metrics = new ArrayList<>();
    long words = control.byteSize() / 4;
    for (int i = 0; i < METRICS_SLOTS && METRICS_BASE + i < words; i++) {
      long count = Integer.toUnsignedLong(Words.get(control, METRICS_BASE + i));
      if (count > 0) {
        metrics.add(new long[] {i, count});
      }
    }
    return metrics;
  }

  /** Number of observable words a control buffer of this many bytes holds. */
  public static long observableCount(MemorySegment control) {
    return Math.max(0, control.byteSize() / 4 - OBSERVABLE_BASE);
  }
}

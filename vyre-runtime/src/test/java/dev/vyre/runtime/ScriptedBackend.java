package dev.vyre.runtime;

import dev.vyre.runtime.spi.Availability;
import dev.vyre.runtime.spi.KernelMemory;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.KernelSpec;
import dev.vyre.runtime.spi.MegakernelBackend;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.Words;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A backend whose kernel is the test: it claims nothing by itself, and the test finishes slots,
 * exits the kernel and holds the retire thread where it wants, so the host's side of a race runs
 * in a fixed order. It obeys SHUTDOWN at once.
 */
final class ScriptedBackend implements MegakernelBackend {

  private ScriptedSession session;

  @Override
  public String name() {
    return "scripted";
  }

  @Override
  public int precedence() {
    return -1;
  }

  @Override
  public Availability availability() {
    return Availability.usable("test double");
  }

  @Override
  public KernelSession open(KernelSpec spec) {
    session = new ScriptedSession(spec);
    return session;
  }

  ScriptedSession session() {
    return session;
  }

  /** The kernel's memory and the test's controls over it. */
  static final class ScriptedSession implements KernelSession {
    private final Arena arena = Arena.ofShared();
    private final KernelMemory memory;
    /** While set, the retire thread's next health check blocks until it is counted down. */
    private volatile CountDownLatch holdRetireThread;
    private final CountDownLatch retireThreadHeld = new CountDownLatch(1);
    private final List<MemorySegment> resources = new ArrayList<>();
    private volatile CountDownLatch holdCheck;
    private volatile CountDownLatch checkEntered;

    ScriptedSession(KernelSpec spec) {
      memory = new KernelMemory(arena.allocate(ControlLayout.byteLength(spec.observableSlots()), 64),
          arena.allocate(SlotLayout.ringByteLength(spec.slotCount()), 64), arena.allocate(DebugLogLayout.BUFFER_BYTES, 64),
          arena.allocate(IoQueueLayout.byteLength(IoQueueLayout.IO_SLOT_COUNT), 64),
          arena.allocate(ExpressLayout.byteLength(spec.slotCount()), 64));
    }

    /** Stores a final status in {@code slot}, as the kernel does when a task ends. */
    void finish(int slot, int status) {
      Words.setRelease(memory.ring(), SlotLayout.statusWord(slot), status);
    }

    void exit() {
      Words.setVolatile(memory.control(), ControlLayout.KERNEL_STATE, ControlLayout.KERNEL_STATE_EXITED);
    }

    /** Returns once the retire thread is held in a health check, outside any retire pass, until {@code release}. */
    void holdRetireThread(CountDownLatch release) throws InterruptedException {
      holdRetireThread = release;
      retireThreadHeld.await();
    }

    @Override
    public KernelMemory memory() {
      return memory;
    }

    @Override
    public synchronized int allocateResource(long byteSize, ResourcePlacement placement) {
      resources.add(arena.allocate(byteSize, 8));
      return resources.size() - 1;
    }

    @Override
    public synchronized MemorySegment resource(int handle) {
      return handle < resources.size() ? resources.get(handle) : null;
    }

    @Override
    public synchronized void writeResource(int handle, long offset, MemorySegment source) {
      resources.get(handle).asSlice(offset).copyFrom(source);
    }

    /** The next {@link #checkDfaPromotion} signals {@code entered} and waits for {@code release}. */
    void holdPromotionCheck(CountDownLatch entered, CountDownLatch release) {
      checkEntered = entered;
      holdCheck = release;
    }

    @Override
    public void checkDfaPromotion(int tableHandle, MemorySegment compact) {
      CountDownLatch release = holdCheck;
      if (release != null) {
        holdCheck = null;
        holdUntil(checkEntered, release);
      }
    }

    /** Tells {@code held} that the calling thread is held, then waits for {@code release}. */
    private static void holdUntil(CountDownLatch held, CountDownLatch release) {
      held.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void promoteDfaTable(int tableHandle, MemorySegment compact) {}

    @Override
    public void readResource(int handle, long offset, MemorySegment target) {
      throw new UnsupportedOperationException();
    }

    @Override
    public byte[] snapshotControl() {
      return Words.toBytes(memory.control());
    }

    @Override
    public byte[] snapshotDebugLog() {
      return Words.toBytes(memory.debugLog());
    }

    @Override
    public void clearDebugLog() {
      memory.debugLog().fill((byte) 0);
    }

    @Override
    public void launch() {
      Words.setVolatile(memory.control(), ControlLayout.KERNEL_STATE, ControlLayout.KERNEL_STATE_RUNNING);
    }

    @Override
    public void wake() {}

    @Override
    public boolean awaitExit(Duration timeout) {
      exit();
      return true;
    }

    @Override
    public void abort() {
      exit();
    }

    @Override
    public void checkHealth() {
      CountDownLatch release = holdRetireThread;
      if (release != null && Thread.currentThread().getName().startsWith("vyre-retire")) {
        holdRetireThread = null;
        holdUntil(retireThreadHeld, release);
      }
    }

    @Override
    public int workerGroups() {
      return 1;
    }

    @Override
    public boolean compiledAtStart() {
      return false;
    }

    @Override
    public int lanesPerWorkerGroup() {
      return 1;
    }

    @Override
    public void setActiveWorkerGroups(int active) {
      // One group, always active: nothing to shed.
    }

    @Override
    public String describe() {
      return "scripted";
    }

    @Override
    public void close() {
      arena.close();
    }
  }
}

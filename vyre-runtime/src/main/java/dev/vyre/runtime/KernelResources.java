package dev.vyre.runtime;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.spi.KernelSession;
import dev.vyre.runtime.spi.ResourcePlacement;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * What a kernel holds besides its ring: resource buffers its tasks read and write (handed out by
 * the session, freed by shutdown), copies between them, the DFA tables promoted, and the services bound to the kernel
 * (the IO request pump is one), closed by shutdown in the order they were made.
 */
final class KernelResources {

  private final KernelSession session;
  private final KernelLifecycle lifecycle;
  /** Made by {@link #service}, closed by {@link #closeServices}; guarded by the kernel's lock (see Megakernel). */
  private final Map<Class<?>, Object> services = new LinkedHashMap<>();
  /** Handles of the DFA tables promoted now. */
  private final Set<Integer> promoted = ConcurrentHashMap.newKeySet();
  /**
   * Writes into resources share it, a promotion holds it alone: the kernel checks a promoted table
   * against the bytes at its handle, and no write may land between that check and the promotion.
   */
  private final ReadWriteLock writes = new ReentrantReadWriteLock();
  /** One promotion at a time. */
  private final Object promoting = new Object();
  /**
   * The table a promotion is checking while writes go on (-1: none), and whether a write into it came
   * since the check began: then the promotion is refused rather than made from what the check read.
   */
  private volatile int checking = -1;
  private volatile boolean writtenWhileChecking;

  KernelResources(KernelSession session, KernelLifecycle lifecycle) {
    this.session = session;
    this.lifecycle = lifecycle;
  }

  int allocate(long byteSize, ResourcePlacement placement) {
    lifecycle.checkSession();
    return session.allocateResource(byteSize, placement);
  }

  MemorySegment view(int handle) {
    lifecycle.checkSession();
    return session.resource(handle);
  }

  void write(int handle, long offset, MemorySegment source) {
    lifecycle.checkSession();
    Lock lock = writes.readLock();
    lock.lock();
    try {
      demoteBeforeWrite(handle);
      session.writeResource(handle, offset, source);
    } finally {
      lock.unlock();
    }
  }

  void read(int handle, long offset, MemorySegment target) {
    lifecycle.checkSession();
    session.readResource(handle, offset, target);
  }

  long startCopy(int from, int to, long bytes) {
    lifecycle.checkOpen();
    Lock lock = writes.readLock();
    lock.lock();
    try {
      demoteBeforeWrite(to);
      return session.startCopy(from, to, bytes);
    } finally {
      lock.unlock();
    }
  }

  /** See {@link Megakernel#promoteDfaTable}. */
  void promoteDfaTable(int tableHandle, MemorySegment compact) {
    lifecycle.checkOpen();
    Lock lock = writes.writeLock();
    synchronized (promoting) {
      lock.lock();
      try {
        checking = tableHandle;
        writtenWhileChecking = false;
      } finally {
        lock.unlock();
      }
      try {
        // Reading the table back and checking it takes a while: writes go on meanwhile (a scan's copies
        // among them), and one into this table refuses the promotion below.
        session.checkDfaPromotion(tableHandle, compact);
        lock.lock();
        try {
          if (writtenWhileChecking) {
            throw PipelineException.busy("DFA table promotion",
                "table " + tableHandle + " was written while its promotion was checked",
                "promote it again once its writes are done");
          }
          session.promoteDfaTable(tableHandle, compact);
          promoted.add(tableHandle);
        } finally {
          lock.unlock();
        }
      } finally {
        checking = -1;
      }
    }
  }

  void demoteDfaTable(int tableHandle) {
    if (promoted.remove(tableHandle)) {
      session.demoteDfaTable(tableHandle);
    }
  }

  boolean isDfaTablePromoted(int tableHandle) {
    return promoted.contains(tableHandle);
  }

  /**
   * The safety rule of promotion: a promoted table's resource is demoted before any write into it
   * reaches the kernel, so no task of the new contents scans with the old table's promoted form.
   */
  private void demoteBeforeWrite(int handle) {
    if (handle == checking) {
      writtenWhileChecking = true;
    }
    if (!promoted.isEmpty()) {
      demoteDfaTable(handle);
    }
  }

  boolean copyFinished(long copy) {
    return session.copyFinished(copy);
  }

  /** See {@link Megakernel#service}; the caller holds the kernel's lock. */
  <T> T service(Class<T> type, Function<KernelSession, ? extends T> factory) {
    lifecycle.checkOpen();
    Object existing = services.get(type);
    if (existing != null) {
      return type.cast(existing);
    }
    T made = factory.apply(session);
    services.put(type, made);
    return made;
  }

  /** Closes every service in the order made, once the kernel has exited; the caller holds the kernel's lock. */
  void closeServices() {
    for (Object service : services.values()) {
      try {
        if (service instanceof AutoCloseable closeable) {
          closeable.close();
        }
      } catch (Exception e) {
        throw new IllegalStateException("closing " + service + " at shutdown", e);
      }
    }
    services.clear();
  }
}

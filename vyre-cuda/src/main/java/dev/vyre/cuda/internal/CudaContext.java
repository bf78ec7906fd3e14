package dev.vyre.cuda.internal;

import dev.vyre.cuda.CudaDevice;
import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.runtime.spi.KernelSpec;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One device's primary context, retained for a session: the device it belongs to and the context
 * each of the session's driver calls makes current first. The current context belongs to the
 * calling thread, and kernels on different devices share threads (one scan loop drives them all),
 * so a call never trusts what an earlier call left current. Sessions on one device share its
 * primary context, as the driver intends; each holds its own retain.
 *
 * <p>The last retain of a device's context is not dropped while a context of another device is
 * retained: on two H100s, a context released while the other device's persistent kernel ran never
 * finished releasing (the driver spun in cuDevicePrimaryCtxRelease until that kernel ended, and a
 * kernel ends only when its owner closes it). Such a release waits here instead, and the last
 * context of the process to be released drops them all.
 */
public final class CudaContext {

  private static final Object LIVE_LOCK = new Object();
  /** Retains held now, per CUdevice. */
  private static final Map<Integer, Integer> LIVE = new HashMap<>();
  /** Last retains of their device, waiting for every other device's to be released. */
  private static final List<CudaContext> DEFERRED = new ArrayList<>();

  private final CudaDriver driver;
  private final CudaDevice device;
  /** The driver's CUdevice of {@link CudaDevice#ordinal()}. */
  private final int handle;
  private final MemorySegment context;

  private CudaContext(CudaDriver driver, CudaDevice device, int handle, MemorySegment context) {
    this.driver = driver;
    this.device = device;
    this.handle = handle;
    this.context = context;
  }

  /**
   * Retains the primary context of device {@code requested}, or of {@code VYRE_CUDA_DEVICE}'s (else
   * 0) for {@link KernelSpec#DEFAULT_DEVICE}, and makes it current.
   */
  public static CudaContext retain(CudaDriver driver, int requested) {
    CudaDevice device = CudaDevice.query(driver, requested == KernelSpec.DEFAULT_DEVICE ? CudaDevice.selectedOrdinal() : requested);
    int handle = driver.device(device.ordinal());
    CudaContext retained = new CudaContext(driver, device, handle, driver.retainPrimaryContext(handle));
    synchronized (LIVE_LOCK) {
      LIVE.merge(handle, 1, Integer::sum);
    }
    retained.makeCurrent();
    return retained;
  }

  public CudaDevice device() {
    return device;
  }

  /** Makes the context current on the calling thread; on every call of a session, so cheap (no allocation). */
  public void makeCurrent() {
    driver.setCurrent(context);
  }

  /** Drops this retain, or defers it while another device's context is retained (see the class comment). */
  public void release() {
    releaseAll(dropped(this, true));
  }

  /**
   * After a sticky fault: destroys every allocation and kernel of the context, so the process can
   * use the device again, then drops this retain (a reset does not drop it).
   */
  public void resetAndRelease() {
    driver.resetPrimaryContext(handle);
    driver.releasePrimaryContextRaw(handle);
    releaseAll(dropped(this, false));
  }

  /**
   * Counts one retain of {@code context}'s device gone and returns the retains to release now: its
   * own while its device has other retains; with none left, it waits among the deferred (unless the
   * reset already released it), and all of them are due once no device has a retain.
   */
  private static List<CudaContext> dropped(CudaContext context, boolean stillRetained) {
    synchronized (LIVE_LOCK) {
      int left = LIVE.merge(context.handle, -1, Integer::sum);
      if (left == 0) {
        LIVE.remove(context.handle);
      }
      if (stillRetained) {
        if (left > 0) {
          return List.of(context);
        }
        DEFERRED.add(context);
      }
      if (!LIVE.isEmpty()) {
        return List.of();
      }
      List<CudaContext> due = List.copyOf(DEFERRED);
      DEFERRED.clear();
      return due;
    }
  }

  private static void releaseAll(List<CudaContext> due) {
    Releases releases = new Releases();
    due.forEach(context -> releases.add(() -> context.driver.releasePrimaryContext(context.handle)));
    releases.releaseAll();
  }
}

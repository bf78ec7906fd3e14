package dev.vyre.cuda.internal;

import dev.vyre.cuda.CudaDevice;
import dev.vyre.cuda.ffm.CudaDriver;
import dev.vyre.runtime.spi.KernelSpec;
import java.lang.foreign.MemorySegment;

/**
 * One device's primary context, retained for a session: the device it belongs to and the context
 * each of the session's driver calls makes current first. The current context belongs to the
 * calling thread, and kernels on different devices share threads (one scan loop drives them all),
 * so a call never trusts what an earlier call left current. Sessions on one device share its
 * primary context, as the driver intends; each holds its own retain.
 */
public final class CudaContext {

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

  /** Drops this retain. */
  public void release() {
    driver.releasePrimaryContext(handle);
  }

  /**
   * After a sticky fault: destroys every allocation and kernel of the context, so the process can
   * use the device again, then drops this retain (a reset does not drop it).
   */
  public void resetAndRelease() {
    driver.resetPrimaryContext(handle);
    driver.releasePrimaryContextRaw(handle);
  }
}

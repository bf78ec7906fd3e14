package dev.vyre.runtime;

import dev.vyre.runtime.spi.ResourcePlacement;
import java.util.concurrent.CompletableFuture;

/**
 * The running ring a tenant registry's tenants publish into, and where their drains are counted.
 * {@link Megakernel#tenantRing()} is a kernel's own ({@code TenantRegistry.of(kernel)} uses it); a
 * test may supply another.
 */
public interface TenantRing {

  /** The {@code tenant_count} the control block was encoded with: it authorizes ids 0 .. this - 1 (at most 29). */
  int authorizedTenants();

  /** Whether the control block authorizes {@code tenant} now (its mask word is non-zero). */
  boolean authorized(int tenant);

  /** Publishes one task (the tenant word and a global opcode already mapped) and returns its ticket; allocation-free. */
  long publish(int tenant, Priority priority, int opcode, int[] args);

  /**
   * {@link #publish(int, Priority, int, int[])} with three arguments as values (the other nine 0);
   * a ring should override this to allocate nothing, as the kernel's own does.
   */
  default long publish(int tenant, Priority priority, int opcode, int arg0, int arg1, int arg2) {
    return publish(tenant, priority, opcode, new int[] {arg0, arg1, arg2});
  }

  /**
   * Publishes a batch whose every task is {@code tenant}'s (checked by the caller) into consecutive
   * slots with one doorbell update, and returns the first task's ticket; allocation-free.
   */
  long publish(int tenant, TaskBatch batch);

  /** Publishes one task and returns a future that completes with how it ended. */
  CompletableFuture<TaskResult> submit(int tenant, Priority priority, int opcode, int[] args);

  /** How many tasks of {@code tenant} published here have finished (DONE, FAULT or WAIT_IO) so far. */
  long retired(int tenant);

  /** Allocates a zeroed resource in the kernel behind this ring; see {@link Megakernel#allocateResource}. */
  int allocateResource(long byteSize, ResourcePlacement placement);

  /**
   * Sets {@code tenant}'s read quota in the kernel: the most bytes the reads its tasks ask for may
   * have in flight (u64; {@code ControlLayout.readQuotaWord} says how it is stored).
   */
  void setReadQuota(int tenant, long maxBytes);

  /** Counts one publish or allocation a tenant's quota refused ({@link Megakernel.Stats#quotaRefusals}). */
  void countQuotaRefusal();
}

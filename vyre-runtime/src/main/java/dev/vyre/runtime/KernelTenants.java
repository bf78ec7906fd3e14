package dev.vyre.runtime;

import dev.vyre.runtime.ring.KernelViews;
import dev.vyre.runtime.ring.RetireStep;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.Words;
import java.util.concurrent.CompletableFuture;

/**
 * A kernel's tenants: which ids the control block authorizes now (a mask word per tenant, which the
 * kernel checks on every task), their read quotas, and the ring registered tenants publish into,
 * counted, so that the retire step tells each tenant how many of its tasks have drained.
 */
final class KernelTenants {

  private final KernelViews views;
  private final RingPublishing publishing;
  private final RetireStep retire;
  private final KernelResources resources;
  private final KernelInspection inspection;
  private final int tenantCount;
  private final TenantRing ring = new KernelTenantRing();

  KernelTenants(KernelViews views, RingPublishing publishing, RetireStep retire, KernelResources resources,
      KernelInspection inspection, int tenantCount) {
    this.views = views;
    this.publishing = publishing;
    this.retire = retire;
    this.resources = resources;
    this.inspection = inspection;
    this.tenantCount = tenantCount;
  }

  /** Authorizes or revokes {@code tenant} by writing its mask word. */
  void setAuthorized(int tenant, boolean authorized) {
    ControlLayout.checkTenant(tenant);
    writeControl(ControlLayout.tenantMaskWord(tenant), authorized ? -1 : 0);
  }

  /** A host-written control word, with release semantics: the kernel reads it while it runs. */
  private void writeControl(long word, int value) {
    views.read(v -> {
      Words.setRelease(v.control(), word, value);
      return null;
    });
  }

  /** Whether the control block authorizes {@code tenant} now; false outside 0..28. On every tenant publish: allocation-free. */
  boolean isAuthorized(int tenant) {
    if (tenant < 0 || tenant >= ControlLayout.MAX_TENANTS) {
      return false;
    }
    return views.read(KernelTenants::maskWord, tenant) != 0;
  }

  private static int maskWord(KernelViews views, int tenant) {
    return Words.getAcquire(views.control(), ControlLayout.tenantMaskWord(tenant));
  }

  /** The ring registered tenants publish into. */
  TenantRing ring() {
    return ring;
  }

  /** The ring registered tenants publish into: counted publishes, so their drains come from the retire step. */
  private final class KernelTenantRing implements TenantRing {

    @Override
    public int authorizedTenants() {
      return tenantCount;
    }

    @Override
    public boolean authorized(int tenant) {
      return isAuthorized(tenant);
    }

    @Override
    public long publish(int tenant, Priority priority, int opcode, int[] args) {
      return publishing.publish(tenant, priority, opcode, args, 0, 0, 0, null, true);
    }

    @Override
    public long publish(int tenant, Priority priority, int opcode, int arg0, int arg1, int arg2) {
      return publishing.publish(tenant, priority, opcode, null, arg0, arg1, arg2, null, true);
    }

    @Override
    public long publish(int tenant, TaskBatch batch) {
      return publishing.publish(batch, true);
    }

    @Override
    public CompletableFuture<TaskResult> submit(int tenant, Priority priority, int opcode, int[] args) {
      CompletableFuture<TaskResult> future = new CompletableFuture<>();
      publishing.publish(tenant, priority, opcode, args, 0, 0, 0, future, true);
      return future;
    }

    @Override
    public int allocateResource(long byteSize, ResourcePlacement placement) {
      return resources.allocate(byteSize, placement);
    }

    @Override
    public void setReadQuota(int tenant, long maxBytes) {
      ControlLayout.checkTenant(tenant);
      writeControl(ControlLayout.tenantQuotaWord(tenant), ControlLayout.readQuotaWord(maxBytes));
    }

    @Override
    public void countQuotaRefusal() {
      inspection.countQuotaRefusal();
    }

    @Override
    public long retired(int tenant) {
      // Nobody may have run a retire pass since the tenant's tasks finished (plain publishes do not
      // wake the retire thread), so run one, after any pass under way: a caller that waits on its
      // drain count makes progress and is not refused for counts another thread is adding.
      retire.retire(true);
      return retire.tenantRetired(tenant);
    }
  }
}

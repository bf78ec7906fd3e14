package dev.vyre.runtime.tenant;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.TenantRing;
import dev.vyre.runtime.wire.ControlLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Hands each producer sharing one megakernel a tenant id and a window of opcodes (vyre's
 * {@code TenantRegistry}, docs/PROTOCOL.md, "Tenants"). Thread-safe; ids are unique under
 * concurrent registration and never reused.
 *
 * <p>Unlike vyre (docs/DESIGN.md, "Tenant ids"), it only hands out ids the control block
 * authorizes. A control block encoded with {@code tenant_count = n} authorizes ids 0..n-1 (n ≤ 29:
 * the mask table has 29 entries and higher ids alias other control words). The registry keeps
 * vyre's first id, 1, so opcode windows match vyre's (id 1 → 0x40100000), and leaves id 0 to the
 * host's own tasks ({@code Task.of} publishes as tenant 0): it hands out ids 1..n-1 and then fails
 * with {@code RegistryFull}.
 */
public final class TenantRegistry {

  /** First opcode of the tenant windows, inside the user opcode range. */
  public static final int TENANT_OPCODE_BASE = 0x4000_0000;
  /** Opcodes per tenant window: tenant {@code id} owns {@code [BASE + id * RANGE, BASE + (id + 1) * RANGE)}. */
  public static final int OPCODE_RANGE_PER_TENANT = 1 << 20;
  /** The first id handed out, as in vyre; id 0 stays the host's. */
  public static final int FIRST_TENANT_ID = 1;

  private final int authorizedTenants;
  private final TenantRing ring;
  /** The next id to hand out. */
  private final AtomicInteger nextId = new AtomicInteger(FIRST_TENANT_ID);
  /** Registered tenants by id: at most 29, so a table indexed by id, which also iterates in id order. */
  private final AtomicReferenceArray<Tenant> tenants = new AtomicReferenceArray<>(ControlLayout.MAX_TENANTS);

  /** A registry without a kernel for a control block that authorizes all 29 tenants (ids 1..28 handed out). */
  public TenantRegistry() {
    this(ControlLayout.MAX_TENANTS);
  }

  /**
   * A registry without a kernel, for a control block encoded with {@code tenant_count =
   * authorizedTenants} (1..29); its tenants publish with {@link Tenant#publishSlot}.
   */
  public TenantRegistry(int authorizedTenants) {
    this(authorizedTenants, null);
  }

  /**
   * {@code kernel}'s registry, made on first use and bound to the kernel: it hands out the ids the
   * kernel's control block authorizes beside the host's own tenant 0 (1 .. tenants-1), and its
   * tenants publish into {@link Megakernel#tenantRing()} with their opcode windows and backpressure.
   * One per kernel, so ids stay unique and the per-tenant drain counts exact.
   */
  public static TenantRegistry of(Megakernel kernel) {
    return kernel.service(TenantRegistry.class, session -> new TenantRegistry(kernel.tenantRing()));
  }

  /** A registry whose tenants publish into {@code ring} ({@link #of} makes a kernel's). */
  public TenantRegistry(TenantRing ring) {
    this(ring.authorizedTenants(), ring);
  }

  private TenantRegistry(int authorizedTenants, TenantRing ring) {
    if (authorizedTenants < 1 || authorizedTenants > ControlLayout.MAX_TENANTS) {
      throw PipelineException.invalidArgument("tenant", "tenant count " + authorizedTenants + " is outside 1..29",
          "pass the tenant_count the control block was encoded with, between 1 and 29 (ids 0..28; docs/DESIGN.md, 'Tenant ids')");
    }
    this.authorizedTenants = authorizedTenants;
    this.ring = ring;
  }

  /** The {@code tenant_count} of the control block: ids below it are authorized. */
  public int authorizedTenants() {
    return authorizedTenants;
  }

  /** Registers a tenant without bounds (vyre's {@code register}). */
  public Tenant register(String label) {
    return registerWithQuotas(label, TenantQuota.unbounded());
  }

  /** Registers a tenant that may keep at most {@code maxOutstandingSlots} slots outstanding (u64). */
  public Tenant registerWithBackpressure(String label, long maxOutstandingSlots) {
    return registerWithQuotas(label, new TenantQuota(maxOutstandingSlots, TenantQuota.UNBOUNDED, TenantQuota.UNBOUNDED));
  }

  /**
   * Registers a tenant with explicit quotas (each raised to at least 1). In a kernel, its staging
   * quota also bounds the bytes its tasks' reads may have in flight (docs/PROTOCOL.md, "Tenant quotas").
   *
   * @throws TenantException {@code RegistryFull} when every authorized id has been handed out
   */
  public Tenant registerWithQuotas(String label, TenantQuota quota) {
    int id;
    do {
      id = nextId.get();
      if (id >= authorizedTenants) {
        throw TenantException.registryFull(id - FIRST_TENANT_ID, authorizedTenants);
      }
    } while (!nextId.compareAndSet(id, id + 1));
    Tenant tenant = new Tenant(id, label, quota, ring);
    if (ring != null) {
      // The kernel holds the tenant's reads to its staging quota: reads it asks for stage bytes too.
      ring.setReadQuota(id, tenant.quotaCounters().maxStagingBytes());
    }
    tenants.set(id, tenant);
    return tenant;
  }

  /**
   * Removes a tenant: later publishes and reservations through it fail with {@code Revoked}, and
   * its staging and handle reservations drop to zero. Slots already in the ring still run (quiesce
   * first for a hard drain). Its id is not handed out again.
   */
  public Optional<Tenant> unregister(int tenantId) {
    if (!isTableIndex(tenantId)) {
      return Optional.empty();
    }
    Tenant tenant = tenants.getAndSet(tenantId, null);
    if (tenant != null) {
      tenant.revoke();
    }
    return Optional.ofNullable(tenant);
  }

  public Optional<Tenant> lookup(int tenantId) {
    return isTableIndex(tenantId) ? Optional.ofNullable(tenants.get(tenantId)) : Optional.empty();
  }

  private static boolean isTableIndex(int tenantId) {
    return tenantId >= 0 && tenantId < ControlLayout.MAX_TENANTS;
  }

  /** Registered tenants sorted by id. */
  public List<Tenant> activeTenants() {
    List<Tenant> active = new ArrayList<>();
    for (int id = 0; id < tenants.length(); id++) {
      Tenant tenant = tenants.get(id);
      if (tenant != null) {
        active.add(tenant);
      }
    }
    return active;
  }

  /** Each registered tenant's counters, sorted by id. */
  public List<TenantRuntimeCounters> runtimeCounters() {
    List<TenantRuntimeCounters> counters = new ArrayList<>();
    for (Tenant tenant : activeTenants()) {
      counters.add(tenant.runtimeCounters());
    }
    return counters;
  }

  /**
   * A set of registered tenants that may share one dispatch (vyre's
   * {@code select_concurrent_tenants}): {@code conflictAdjacency[i * n + j] != 0} means the i-th
   * and j-th registered tenants (in id order, n of them) conflict. Greedy in id order, a tenant is
   * taken when it conflicts in neither direction with one taken before. An adjacency of the wrong
   * length, or without any conflict, selects every tenant. Returns ids in selection order.
   */
  public int[] selectConcurrentTenants(int[] conflictAdjacency) {
    int[] active = activeTenants().stream().mapToInt(Tenant::id).toArray();
    int n = active.length;
    if ((long) n * n != conflictAdjacency.length || Arrays.stream(conflictAdjacency).allMatch(conflict -> conflict == 0)) {
      return active;
    }
    int[] selected = new int[n];
    int count = 0;
    candidates:
    for (int candidate = 0; candidate < n; candidate++) {
      for (int s = 0; s < count; s++) {
        int taken = selected[s];
        if (conflictAdjacency[candidate * n + taken] != 0 || conflictAdjacency[taken * n + candidate] != 0) {
          continue candidates;
        }
      }
      selected[count++] = candidate;
    }
    int[] ids = new int[count];
    for (int s = 0; s < count; s++) {
      ids[s] = active[selected[s]];
    }
    return ids;
  }
}

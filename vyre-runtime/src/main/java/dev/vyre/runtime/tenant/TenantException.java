package dev.vyre.runtime.tenant;

import dev.vyre.driver.error.BackendException;
import dev.vyre.driver.error.ErrorCode;
import dev.vyre.driver.error.ErrorVariant;
import java.util.Map;

/**
 * vyre's {@code TenantError}: the registry ran out of ids the control block authorizes, a tenant
 * left its opcode window or quota, was revoked, or did not drain in time. Display texts are vyre's
 * where vyre has the variant; {@code RegistryFull}'s fix and {@code Unauthorized} and
 * {@code Unbound} are ours (docs/DESIGN.md, "Tenant ids"). None is a device failure, so each
 * carries {@link ErrorCode#Unknown}; the variant says how to recover.
 */
public final class TenantException extends BackendException {

  /** This family's variants. */
  public enum Variant implements ErrorVariant {
    RegistryFull,
    OpcodeOutOfRange,
    Revoked,
    QuiesceTimeout,
    Backpressure,
    StagingBackpressure,
    ResidentHandleBackpressure,
    ResourceUnderflow,
    Unauthorized,
    Unbound,
    BatchOverCap,
    ForeignTask,
    CounterOverflow
  }

  private TenantException(Variant variant, Map<String, Object> fields, String message) {
    super(ErrorCode.Unknown, variant, fields, message);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "TenantError";
  }

  /** True for the three quota variants: the request may succeed once the tenant drains or releases. */
  public boolean isBackpressure() {
    return switch (variant()) {
      case Backpressure, StagingBackpressure, ResidentHandleBackpressure -> true;
      case RegistryFull, OpcodeOutOfRange, Revoked, QuiesceTimeout, ResourceUnderflow, Unauthorized, Unbound, BatchOverCap,
          ForeignTask, CounterOverflow -> false;
    };
  }

  static TenantException registryFull(long issued, int authorizedTenants) {
    return new TenantException(Variant.RegistryFull, fieldMap("issued", issued, "authorized_tenants", (long) authorizedTenants),
        "tenant registry exhausted after " + issued + " registrations: the control block authorizes tenant ids 0.."
            + (authorizedTenants - 1) + " and id 0 stays the host's. Fix: bootstrap the Megakernel with more tenants"
            + " (at most 29, ids 0..28); ids are not reused after unregister.");
  }

  static TenantException opcodeOutOfRange(int tenantId, int localOpcode, int cap) {
    return new TenantException(Variant.OpcodeOutOfRange,
        fieldMap("tenant_id", (long) tenantId, "local_opcode", Integer.toUnsignedLong(localOpcode), "cap", (long) cap),
        "tenant " + tenantId + " published local opcode " + Integer.toUnsignedString(localOpcode) + "; out of range [0, " + cap
            + "). Fix: caller must stay inside the opcode window returned by `register()`.");
  }

  static TenantException revoked(int tenantId) {
    return new TenantException(Variant.Revoked, fieldMap("tenant_id", (long) tenantId),
        "tenant " + tenantId + " was revoked; handle is stale. Fix: acquire a fresh handle from the registry.");
  }

  static TenantException quiesceTimeout(int tenantId, long outstanding) {
    return new TenantException(Variant.QuiesceTimeout, fieldMap("tenant_id", (long) tenantId, "outstanding", outstanding),
        "tenant " + tenantId + " quiesce timed out with " + Long.toUnsignedString(outstanding) + " inflight slots. "
            + "Fix: ensure the megakernel is making progress (check DONE_COUNT) or raise the timeout.");
  }

  static TenantException backpressure(int tenantId, long outstanding, long cap) {
    return new TenantException(Variant.Backpressure, fieldMap("tenant_id", (long) tenantId, "outstanding", outstanding, "cap", cap),
        "tenant " + tenantId + " has " + Long.toUnsignedString(outstanding) + " outstanding slots, cap " + Long.toUnsignedString(cap)
            + ". Fix: wait for drain progress or register the tenant with a larger bounded backlog.");
  }

  static TenantException stagingBackpressure(int tenantId, long requested, long used, long cap) {
    return new TenantException(Variant.StagingBackpressure,
        fieldMap("tenant_id", (long) tenantId, "requested", requested, "used", used, "cap", cap),
        "tenant " + tenantId + " requested " + Long.toUnsignedString(requested) + " staging bytes with " + Long.toUnsignedString(used)
            + " already reserved, cap " + Long.toUnsignedString(cap) + ". Fix: release staging reservations after publish/readback"
            + " progress or register the tenant with a larger bounded staging budget.");
  }

  static TenantException residentHandleBackpressure(int tenantId, long requested, long used, long cap) {
    return new TenantException(Variant.ResidentHandleBackpressure,
        fieldMap("tenant_id", (long) tenantId, "requested", requested, "used", used, "cap", cap),
        "tenant " + tenantId + " requested " + Long.toUnsignedString(requested) + " resident handles with "
            + Long.toUnsignedString(used) + " already reserved, cap " + Long.toUnsignedString(cap) + ". Fix: release resident"
            + " handles when backend ownership ends or register the tenant with a larger bounded resident-handle budget.");
  }

  static TenantException resourceUnderflow(int tenantId, String resource, long requested, long used) {
    return new TenantException(Variant.ResourceUnderflow,
        fieldMap("tenant_id", (long) tenantId, "resource", resource, "requested", requested, "used", used),
        "tenant " + tenantId + " released " + Long.toUnsignedString(requested) + " " + resource + " with only "
            + Long.toUnsignedString(used) + " reserved. Fix: pair every tenant resource release with a successful reservation.");
  }

  /** Not a vyre variant: the tenant's mask word in the control block is zero, so the kernel would fault its slots. */
  static TenantException unauthorized(int tenantId) {
    return new TenantException(Variant.Unauthorized, fieldMap("tenant_id", (long) tenantId),
        "tenant " + tenantId + " is not authorized by the control block (its mask word " + (3 + tenantId) + " is zero)."
            + " Fix: authorize it again with Megakernel.setTenantAuthorized(" + tenantId + ", true) before publishing.");
  }

  /** Not a vyre variant: the tenant's registry is not bound to a Megakernel, so there is no ring to publish into. */
  static TenantException unbound(int tenantId) {
    return new TenantException(Variant.Unbound, fieldMap("tenant_id", (long) tenantId),
        "tenant " + tenantId + " belongs to a registry without a Megakernel. Fix: register through TenantRegistry.of(kernel)"
            + " to publish into a running kernel, or publish into a ring of your own with publishSlot.");
  }

  /** A batch larger than the tenant's outstanding-slot cap: it could never be published whole. */
  static TenantException batchOverCap(int tenantId, int batchSize, long cap) {
    return new TenantException(Variant.BatchOverCap, fieldMap("tenant_id", (long) tenantId, "batch", (long) batchSize, "cap", cap),
        "tenant " + tenantId + " published a batch of " + batchSize + " tasks, more than its cap of " + Long.toUnsignedString(cap)
            + " outstanding slots. Fix: publish batches of at most " + Long.toUnsignedString(cap) + " tasks, or register the tenant"
            + " with a larger bounded backlog.");
  }

  /** A task in a tenant's batch that is not the tenant's: another tenant word, or an opcode outside its window. */
  static TenantException foreignTask(int tenantId, int index, int taskTenant, int opcode) {
    return new TenantException(Variant.ForeignTask,
        fieldMap("tenant_id", (long) tenantId, "index", (long) index, "task_tenant", Integer.toUnsignedLong(taskTenant),
            "opcode", Integer.toUnsignedLong(opcode)),
        "task " + index + " of tenant " + tenantId + "'s batch has tenant word " + Integer.toUnsignedString(taskTenant) + " and opcode 0x"
            + Integer.toHexString(opcode) + ", not this tenant's id and opcode window. Fix: fill the batch with Tenant.add(batch, local, args).");
  }

  /** A u64 counter would wrap (vyre's {@code Pipeline(QueueFull)} inside a tenant error). */
  static TenantException counterOverflow(int tenantId, String counter, String fix) {
    return new TenantException(Variant.CounterOverflow, fieldMap("tenant_id", (long) tenantId, "counter", counter),
        "tenant " + tenantId + " " + counter + " would leave the u64 range. Fix: " + fix + ".");
  }
}

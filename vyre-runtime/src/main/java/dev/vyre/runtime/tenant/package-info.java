/**
 * Tenants: producers that share one kernel, each with an authorized id, a window of opcodes and
 * quotas. Start with {@link dev.vyre.runtime.tenant.TenantRegistry} ({@code TenantRegistry.of(kernel)}
 * gives a kernel's own), which registers {@link dev.vyre.runtime.tenant.Tenant}s under a
 * {@link dev.vyre.runtime.tenant.TenantQuota}; refusals are
 * {@link dev.vyre.runtime.tenant.TenantException}s. vyre's registry, with the ids it hands out fixed
 * (docs/PROTOCOL.md, "Tenants"; docs/DESIGN.md, "Tenant ids").
 */
package dev.vyre.runtime.tenant;

/**
 * The launch policy applied to running kernels: {@link dev.vyre.policy.adapt.WorkerGroupPolicy}
 * reads a queue as the policy's request, {@link dev.vyre.policy.adapt.WorkerGroupLoop} sizes a
 * kernel at boot and sheds and wakes its worker groups from telemetry while it runs
 * (docs/POLICY.md).
 */
package dev.vyre.policy.adapt;

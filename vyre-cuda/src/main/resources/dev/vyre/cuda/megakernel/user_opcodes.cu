// User opcodes: CUDA C bodies compiled into the kernel (the JIT path). Each body sees `a`
// (VyreKernelArgs), `slot`, `op` and `args[12]` (writable; continuations keep state there), and
// sets `status`. Control words are changed through vyre_add(a, word, delta), vyre_write(a, word,
// value) and read through vyre_read(a, word); resources through a.resources[handle]; reads from
// the host through vyre_io_read, vyre_io_status and vyre_io_release.
__device__ vyre_result vyre_user_opcode(const VyreKernelArgs& a, unsigned slot, unsigned op, unsigned* args, unsigned tenant, bool* handled) {
  (void)slot; (void)args;
  // A body's reads are the task's tenant's, held to its read quota; one the quota can never admit
  // faults the task whatever the body returns (docs/PROTOCOL.md, "Tenant quotas").
  bool over_quota = false;
  [[maybe_unused]] auto vyre_io_read = [&](const VyreKernelArgs& k, unsigned source, unsigned destination,
                                           unsigned long long offset, unsigned bytes, unsigned tag) {
    return vyre_tenant_io_read(k, tenant, source, destination, offset, bytes, tag, &over_quota);
  };
  int status = VYRE_STATUS_DONE;
  switch (op) {
/*VYRE_USER_OPCODES*/
    default:
      *handled = false;
      return -VYRE_FAULT_UNKNOWN_OPCODE;
  }
  *handled = true;
  if (over_quota) return -VYRE_FAULT_TENANT_QUOTA_EXCEEDED;
  return status == VYRE_STATUS_FAULT ? -VYRE_FAULT_HANDLER : status;
}

// User opcodes: CUDA C bodies compiled into the kernel (the JIT path). Each body sees `a`
// (VyreKernelArgs), `slot`, `op` and `args[12]` (writable; continuations keep state there), and
// sets `status`. Control words are changed through vyre_add(a, word, delta), vyre_write(a, word,
// value) and read through vyre_read(a, word); resources through a.resources[handle]; reads from
// the host through vyre_io_read, vyre_io_status and vyre_io_release.
//
// A slot's arguments live in its ring slot, as in vyre, where a handler writes them in place: a
// task that ends DONE or FAULT leaves there the arguments its last run left (docs/PROTOCOL.md,
// "Arguments a task leaves"). A body writes `args`, a copy, so the words it changed are stored back
// here; the status store that follows releases them. A YIELD or REQUEUE is stored by the caller.
__device__ vyre_result vyre_user_opcode(const VyreKernelArgs& a, unsigned slot, unsigned op, unsigned* args, unsigned tenant, bool* handled) {
  vyre_acquire_host_writes();  // a body may read any resource, through vyre_resource or a.resources
  unsigned before[VYRE_ARGS_PER_SLOT];
  for (unsigned w = 0; w < VYRE_ARGS_PER_SLOT; w++) before[w] = args[w];
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
  if (status != VYRE_STATUS_YIELD && status != VYRE_STATUS_REQUEUE) {
    unsigned* ring_args = a.ring + (unsigned long long)slot * VYRE_SLOT_WORDS + VYRE_SLOT_ARG0_WORD;
    for (unsigned w = 0; w < VYRE_ARGS_PER_SLOT; w++) {
      if (args[w] != before[w]) ring_args[w] = args[w];
    }
  }
  if (over_quota) return -VYRE_FAULT_TENANT_QUOTA_EXCEEDED;
  return status == VYRE_STATUS_FAULT ? -VYRE_FAULT_HANDLER : status;
}

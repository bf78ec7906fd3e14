// ---- Reads a task asks for (docs/PROTOCOL.md; SlotContext.ioRead/ioStatus/ioRelease in Java) ----
// A handler asks the host for `bytes` bytes of IO source `source` at `offset`, read into the start
// of resource `destination`, then yields until vyre_io_status says OK or ERROR and releases the
// slot. Which task owns an IO slot (its tenant + 1) is kept in device memory (atomics on mapped host
// memory are not allowed here); the owner alone writes a request and PUBLISHED, the host pump
// CLAIMED and then OK or ERROR, the owner EMPTY. Handlers call vyre_io_read(a, ...), which
// vyre_user_opcode binds to the task's tenant. Out of line, as the continuation paths: NVRTC's time
// grows with every inlined copy.

__device__ __forceinline__ unsigned* vyre_io_status_word(const VyreKernelArgs& a, unsigned io_slot) {
  return a.io_queue + io_slot * VYRE_IO_SLOT_WORDS + VYRE_IO_STATUS_WORD;
}

// Publishes a READ in a free IO slot for a task of `tenant` and returns the slot; -1 while all are
// taken or the read does not fit the tenant's read quota now (the task yields and asks again). A
// read larger than the quota never fits: -1 with *over_quota set, and the task faults
// (vyre_user_opcode). The quota is a host-written word, one PCIe read per ask; the bytes in flight
// are counted even without a bound, so that a quota set while reads are in flight sees them. A
// refusal is counted in device memory only (the scout re-syncs the mirror): a held task asks again
// at every run.
__device__ __noinline__ int vyre_tenant_io_read(const VyreKernelArgs& a, unsigned tenant, unsigned source, unsigned destination,
                                                unsigned long long offset, unsigned bytes, unsigned tag, bool* over_quota) {
  VyreDeviceState* s = a.state;
  unsigned quota = vyre_read(a, VYRE_CTL_TENANT_QUOTA_BASE + tenant);
  bool bounded = quota != VYRE_CTL_NO_READ_QUOTA;
  if (bounded && bytes > quota) {
    *over_quota = true;
    atomicAdd(a.dcontrol + VYRE_CTL_TENANT_QUOTA_REFUSALS, 1u);
    return -1;
  }
  unsigned long long before = atomicAdd(&s->tenant_read_bytes[tenant], (unsigned long long)bytes);
  if (bounded && before + bytes > quota) {
    atomicAdd(&s->tenant_read_bytes[tenant], 0ull - bytes);
    atomicAdd(a.dcontrol + VYRE_CTL_TENANT_QUOTA_REFUSALS, 1u);
    return -1;
  }
  for (unsigned k = 0; k < VYRE_IO_SLOTS; k++) {
    if (vyre_load_gpu(a.io_owner + k) != 0u || atomicCAS(a.io_owner + k, 0u, tenant + 1u) != 0u) continue;
    s->io_slot_bytes[k] = bytes;
    __threadfence();  // the last owner's EMPTY comes before this request
    volatile unsigned* request = a.io_queue + k * VYRE_IO_SLOT_WORDS;
    request[0] = VYRE_IO_OP_READ;
    request[1] = source;
    request[2] = destination;
    request[3] = (unsigned)offset;
    request[4] = (unsigned)(offset >> 32);
    request[5] = bytes;
    request[7] = tag;
    vyre_store_sys(vyre_io_status_word(a, k), VYRE_STATUS_PUBLISHED);
    return (int)k;
  }
  atomicAdd(&s->tenant_read_bytes[tenant], 0ull - bytes);
  return -1;
}

// PUBLISHED or CLAIMED while the host works on it, then VYRE_IO_OK (the bytes are in the
// resource: this load is an acquire) or VYRE_IO_ERROR; VYRE_IO_ERROR for a bad slot number.
__device__ __noinline__ unsigned vyre_io_status(const VyreKernelArgs& a, unsigned io_slot) {
  if (io_slot >= VYRE_IO_SLOTS) return VYRE_IO_ERROR;
  return vyre_load_sys(vyre_io_status_word(a, io_slot));
}

// Hands a finished IO slot back for the next request, and its bytes back to its tenant's quota.
__device__ __noinline__ void vyre_io_release(const VyreKernelArgs& a, unsigned io_slot) {
  if (io_slot >= VYRE_IO_SLOTS) return;
  unsigned long long bytes = a.state->io_slot_bytes[io_slot];
  vyre_store_sys(vyre_io_status_word(a, io_slot), VYRE_STATUS_EMPTY);
  __threadfence();
  unsigned owner = atomicExch(a.io_owner + io_slot, 0u);
  if (owner != 0u) atomicAdd(&a.state->tenant_read_bytes[owner - 1u], 0ull - bytes);
}

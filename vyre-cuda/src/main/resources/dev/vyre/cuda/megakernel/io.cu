// ---- Reads a task asks for (docs/PROTOCOL.md; SlotContext.ioRead/ioStatus/ioRelease in Java) ----
// A handler asks the host for `bytes` bytes of IO source `source` at `offset`, read into the start
// of resource `destination`, then yields until vyre_io_status says OK or ERROR and releases the
// slot. Which task owns an IO slot is kept in device memory (atomics on mapped host memory are not
// allowed here); the owner alone writes a request and PUBLISHED, the host pump CLAIMED and then OK
// or ERROR, the owner EMPTY. Out of line, as the continuation paths: NVRTC's time grows with
// every inlined copy.

__device__ __forceinline__ unsigned* vyre_io_status_word(const VyreKernelArgs& a, unsigned io_slot) {
  return a.io_queue + io_slot * VYRE_IO_SLOT_WORDS + VYRE_IO_STATUS_WORD;
}

// Publishes a READ in a free IO slot and returns the slot, or -1 while all are taken.
__device__ __noinline__ int vyre_io_read(const VyreKernelArgs& a, unsigned source, unsigned destination,
                                         unsigned long long offset, unsigned bytes, unsigned tag) {
  for (unsigned k = 0; k < VYRE_IO_SLOTS; k++) {
    if (vyre_load_gpu(a.io_owner + k) != 0u || atomicCAS(a.io_owner + k, 0u, 1u) != 0u) continue;
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
  return -1;
}

// PUBLISHED or CLAIMED while the host works on it, then VYRE_IO_OK (the bytes are in the
// resource: this load is an acquire) or VYRE_IO_ERROR; VYRE_IO_ERROR for a bad slot number.
__device__ __noinline__ unsigned vyre_io_status(const VyreKernelArgs& a, unsigned io_slot) {
  if (io_slot >= VYRE_IO_SLOTS) return VYRE_IO_ERROR;
  return vyre_load_sys(vyre_io_status_word(a, io_slot));
}

// Hands a finished IO slot back for the next request.
__device__ __noinline__ void vyre_io_release(const VyreKernelArgs& a, unsigned io_slot) {
  if (io_slot >= VYRE_IO_SLOTS) return;
  vyre_store_sys(vyre_io_status_word(a, io_slot), VYRE_STATUS_EMPTY);
  __threadfence();
  atomicExch(a.io_owner + io_slot, 0u);
}

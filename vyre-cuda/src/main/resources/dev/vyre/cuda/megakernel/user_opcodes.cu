// User opcodes: CUDA C bodies compiled into the kernel (the JIT path). Each body sees `a`
// (VyreKernelArgs), `slot`, `op` and `args[12]` (writable; continuations keep state there), and
// sets `status`. Control words are changed through vyre_add(a, word, delta), vyre_write(a, word,
// value) and read through vyre_read(a, word); resources through a.resources[handle]; reads from
// the host through vyre_io_read, vyre_io_status and vyre_io_release.
__device__ vyre_result vyre_user_opcode(const VyreKernelArgs& a, unsigned slot, unsigned op, unsigned* args, bool* handled) {
  (void)slot; (void)args;
  int status = VYRE_STATUS_DONE;
  switch (op) {
/*VYRE_USER_OPCODES*/
    default:
      *handled = false;
      return -VYRE_FAULT_UNKNOWN_OPCODE;
  }
  *handled = true;
  return status == VYRE_STATUS_FAULT ? -VYRE_FAULT_HANDLER : status;
}

// One slot's operation with the reference semantics (ReferenceInterpreter): the built-in opcodes,
// DFA_STEP among them, packed slots, the tenant check, and the hand-off to user opcodes.

// Defined last (user_opcodes.cu), where KernelSource splices the user opcodes' bodies.
__device__ vyre_result vyre_user_opcode(const VyreKernelArgs& a, unsigned slot, unsigned op, unsigned* args, unsigned tenant, bool* handled);

// One operation with the reference semantics: metrics, built-ins, user handlers, bounds checks.
// `tenant` is the slot's: a user handler's reads count against its read quota.
__device__ vyre_result vyre_dispatch(const VyreKernelArgs& a, unsigned slot, unsigned tenant, unsigned op, unsigned* args, unsigned arg0, unsigned arg1, unsigned arg2, bool meter) {
  if (meter && op < VYRE_METERED_OPCODES) {
    vyre_add(a, VYRE_CTL_METRICS_BASE + op, 1u);
  }
  switch (op) {
    case VYRE_OP_NOP:
      return VYRE_STATUS_DONE;
    case VYRE_OP_STORE_U32:
      if (!vyre_in_control(a, arg1, 1)) return -VYRE_FAULT_CONTROL_INDEX;
      vyre_write(a, arg1, arg0);
      if (arg1 == VYRE_CTL_SHUTDOWN && arg0 != 0u) atomicExch(&a.state->shutdown, 1u);
      return VYRE_STATUS_DONE;
    case VYRE_OP_ATOMIC_ADD:
      if (!vyre_in_control(a, arg1, 1)) return -VYRE_FAULT_CONTROL_INDEX;
      vyre_add(a, arg1, arg0);
      return VYRE_STATUS_DONE;
    case VYRE_OP_LOAD_U32: {
      unsigned long long target = VYRE_CTL_OBSERVABLE_BASE + (unsigned long long)arg1;
      if (!vyre_in_control(a, arg0, 1) || target >= a.control_words) return -VYRE_FAULT_CONTROL_INDEX;
      vyre_write(a, (unsigned)target, vyre_read(a, arg0));
      return VYRE_STATUS_DONE;
    }
    case VYRE_OP_COMPARE_SWAP: {
      unsigned long long target = VYRE_CTL_OBSERVABLE_BASE + (unsigned long long)arg0;
      if (!vyre_in_control(a, arg0, 1) || target >= a.control_words) return -VYRE_FAULT_CONTROL_INDEX;
      unsigned previous = vyre_host_owned(arg0) ? vyre_read(a, arg0) : atomicCAS(a.dcontrol + arg0, arg1, arg2);
      if (previous == arg1) vyre_mirror(a, arg0, arg2);
      if (previous == arg1 && vyre_host_owned(arg0)) atomicExch(a.dcontrol + arg0, arg2);
      vyre_write(a, (unsigned)target, previous);
      return VYRE_STATUS_DONE;
    }
    case VYRE_OP_MEMCPY:
      if (!vyre_in_control(a, arg0, arg2) || !vyre_in_control(a, arg1, arg2)) return -VYRE_FAULT_CONTROL_INDEX;
      for (unsigned i = 0; i < arg2; i++) {
        vyre_write(a, arg1 + i, vyre_read(a, arg0 + i));
      }
      return VYRE_STATUS_DONE;
    case VYRE_OP_BATCH_FENCE:
      if (a.control_words <= VYRE_CTL_OBSERVABLE_BASE) return -VYRE_FAULT_CONTROL_INDEX;
      vyre_add(a, VYRE_CTL_EPOCH, 1u);
      vyre_write(a, VYRE_CTL_OBSERVABLE_BASE, arg1);
      return VYRE_STATUS_DONE;
    case VYRE_OP_PRINTF: {
      unsigned long long base = (unsigned long long)atomicAdd(a.debug_log, VYRE_DEBUG_RECORD_WORDS) + 1ull;
      if (base + VYRE_DEBUG_RECORD_WORDS <= a.debug_words) {
        a.debug_log[base] = arg0;
        a.debug_log[base + 1] = arg1;
        a.debug_log[base + 2] = arg2;
        a.debug_log[base + 3] = slot * VYRE_SLOT_WORDS;
      }
      return VYRE_STATUS_DONE;
    }
    case VYRE_OP_DFA_STEP:
      return vyre_dfa_step(a, args);
    case VYRE_OP_SHUTDOWN:
      vyre_write(a, VYRE_CTL_SHUTDOWN, 1u);
      atomicExch(&a.state->shutdown, 1u);
      return VYRE_STATUS_DONE;
    default: {
      bool handled = false;
      vyre_result r = vyre_user_opcode(a, slot, op, args, tenant, &handled);
      return handled ? r : -VYRE_FAULT_UNKNOWN_OPCODE;
    }
  }
}

__device__ __forceinline__ unsigned vyre_arg_byte(const unsigned* args, unsigned k) {
  return (args[k >> 2] >> (8u * (k & 3u))) & 0xFFu;
}

// Runs every packed op whose arguments fit the 12 argument words (PackedSlotCodec's encoding:
// byte 0 the op count, byte 1 the packed argument words, then an (opcode, argument offset) byte pair per op).
__device__ vyre_result vyre_packed(const VyreKernelArgs& a, unsigned slot, unsigned tenant, unsigned* args) {
  unsigned count = vyre_arg_byte(args, 0);
  unsigned total = vyre_arg_byte(args, 1);
  unsigned metadata = (2u + 2u * count + 3u) / 4u;
  if (metadata > VYRE_ARGS_PER_SLOT || metadata + total > VYRE_ARGS_PER_SLOT) return -VYRE_FAULT_PACKED;
  for (unsigned i = 0; i < count; i++) {
    unsigned op = vyre_arg_byte(args, 2 + 2 * i);
    unsigned offset = vyre_arg_byte(args, 3 + 2 * i);
    unsigned end = i + 1 < count ? vyre_arg_byte(args, 3 + 2 * (i + 1)) : total;
    if (end < offset || metadata + end > VYRE_ARGS_PER_SLOT) return -VYRE_FAULT_PACKED;
    // DFA_STEP reads eleven argument words of its own slot; a packed operation has at most three.
    if (op == VYRE_OP_DFA_STEP) return -VYRE_FAULT_PACKED;
    unsigned first = metadata + offset;
    unsigned own = end - offset;
    vyre_result r = vyre_dispatch(a, slot, tenant, op, args, own > 0 ? args[first] : 0u, own > 1 ? args[first + 1] : 0u,
                                  own > 2 ? args[first + 2] : 0u, true);
    if (r < 0) return r;
  }
  return VYRE_STATUS_DONE;
}

// The mirror answers yes for an authorized tenant. Anything else asks the host's table itself: the
// mirror is written only when the scout takes its slow path, so it is empty until then (a fresh
// kernel whose first tasks all ran from express copies) and may lag a tenant authorized since. A
// continuation run by a worker, whose first run was authorized from the scout's own poll, then
// faulted as unauthorized. Asking costs one host read, on the refusing path only.
__device__ __forceinline__ bool vyre_authorized(const VyreKernelArgs& a, unsigned tenant) {
  if (tenant >= VYRE_MAX_TENANTS) return false;
  VyreDeviceState* s = a.state;
  if (vyre_load_gpu(&s->tenant_base) == VYRE_CTL_TENANT_TABLE_START && vyre_load_gpu(&s->tenant_mask[tenant]) != 0u) return true;
  unsigned long long word = (unsigned long long)vyre_read(a, VYRE_CTL_TENANT_BASE) + tenant;
  return word < a.control_words && vyre_read(a, (unsigned)word) != 0u;
}

// ---- Wave gates (WaveGateLayout; docs/WAVES.md) ----
// A wave task's gate table: the DEVICE resource its priority word names, or null when that names
// none, a mapped one (no device atomics there) or one without the task's layer.
__device__ __noinline__ unsigned* vyre_wave_table(const VyreKernelArgs& a, unsigned gate) {
  vyre_acquire_host_writes();
  const VyreResource* r = vyre_resource(a, (gate >> VYRE_WAVE_HANDLE_SHIFT) & VYRE_WAVE_HANDLE_MASK);
  unsigned own = gate >> VYRE_WAVE_LAYER_SHIFT;
  if (!r || (r->bytes & VYRE_RESOURCE_HOST_MAPPED) || ((unsigned long long)own + 1ull) * 4ull > vyre_resource_bytes(r)) return nullptr;
  return reinterpret_cast<unsigned*>(r->ptr);
}

// 0 when the layer before the task's has finished (run it), VYRE_STATUS_REQUEUE while it has tasks
// left, or a negated fault reason: no table, or the layer before failed.
__device__ __noinline__ vyre_result vyre_wave_enter(const unsigned* table, unsigned gate) {
  if (!table) return -VYRE_FAULT_WAVE_GATE_INVALID;
  unsigned before = vyre_load_gpu(table + (gate >> VYRE_WAVE_LAYER_SHIFT) - 1u);
  if (before == VYRE_WAVE_FAILED) return -VYRE_FAULT_WAVE_PREDECESSOR_FAILED;
  if (before != 0u) return VYRE_STATUS_REQUEUE;
  __threadfence();  // acquire: the earlier layers' results before this task reads them
  return 0;
}

// Counts a finished wave task off its layer, marking the layer FAILED first unless it finished DONE.
__device__ __noinline__ void vyre_wave_leave(unsigned* table, unsigned gate, vyre_result r) {
  unsigned* count = table + (gate >> VYRE_WAVE_LAYER_SHIFT);
  __threadfence();  // release: this task's results before its layer's count drops
  if (r != VYRE_STATUS_DONE) atomicOr(count, VYRE_WAVE_FAILED);
  atomicSub(count, 1u);
}

// Executes one claimed slot and returns its final status; on FAULT the reason is stored in the
// slot's priority word and returned through fault_out. `known_authorized` is 0 or 1 when the
// caller already read the tenant's mask word, -1 to look it up. A wave task (a priority word at or
// above VYRE_WAVE_GATED_MIN) also passes its gate; every other slot pays two predictable compares.
__device__ unsigned vyre_execute_slot(const VyreKernelArgs& a, unsigned slot, unsigned* words, int known_authorized, unsigned* opcode_out, unsigned* tenant_out, unsigned* fault_out) {
  unsigned* base = a.ring + (unsigned long long)slot * VYRE_SLOT_WORDS;
  unsigned opcode = words[1];
  unsigned tenant = words[2];
  unsigned gate = words[VYRE_SLOT_PRIORITY_WORD];
  *opcode_out = opcode;
  *tenant_out = tenant;
  unsigned* args = words + 4;
  unsigned* gates = nullptr;
  vyre_result r;
  if (known_authorized >= 0 ? known_authorized == 0 : !vyre_authorized(a, tenant)) {
    r = -VYRE_FAULT_TENANT;
    if (gate >= VYRE_WAVE_GATED_MIN) gates = vyre_wave_table(a, gate);
  } else if (gate >= VYRE_WAVE_GATED_MIN && (r = vyre_wave_enter(gates = vyre_wave_table(a, gate), gate)) != 0) {
    // REQUEUE while the layer before has tasks left; a fault leaves the layer as the task does.
  } else if (opcode == VYRE_OP_PACKED_SLOT) {
    r = vyre_packed(a, slot, tenant, args);
  } else {
    // Outer metrics are counted per warp by the caller; a continuation (YIELD, REQUEUE) goes back
    // to the caller, which stores it and queues the slot (vyre_continue).
    r = vyre_dispatch(a, slot, tenant, opcode, args, args[0], args[1], args[2], false);
  }
  if (gates && r != VYRE_STATUS_YIELD && r != VYRE_STATUS_REQUEUE) vyre_wave_leave(gates, gate, r);
  if (r < 0) {
    *fault_out = (unsigned)(-r);
    base[3] = (unsigned)(-r);  // the fault reason replaces the consumed priority word
    return VYRE_STATUS_FAULT;
  }
  *fault_out = 0;
  return (unsigned)r;
}

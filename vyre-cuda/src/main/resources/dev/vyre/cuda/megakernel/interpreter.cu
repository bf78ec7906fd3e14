// One slot's operation with the reference semantics (ReferenceInterpreter): the built-in opcodes,
// DFA_STEP among them, packed slots, the tenant check, and the hand-off to user opcodes.

// Defined last (user_opcodes.cu), where KernelSource splices the user opcodes' bodies.
__device__ vyre_result vyre_user_opcode(const VyreKernelArgs& a, unsigned slot, unsigned op, unsigned* args, unsigned tenant, bool* handled);

// ---- DFA_STEP (opcode 6): mirrors dev.vyre.runtime.dfa.DfaStep; see DfaStepArgs for the args ----
// The table is read with ordinary loads, not __ldg: a buffer that held one table may hold another
// later in the persistent kernel's life (vyre serve reuses its buffers), and the read-only data
// cache is not kept coherent with such writes. The fence at the step's start orders the loads after
// the claim that saw the task, and on sm_70+ invalidates L1, so they see the host's new table.
__device__ __forceinline__ unsigned vyre_table_word(const unsigned* p) { return *p; }

// DfaTableLayout.headerProblem: true when the header is consistent with itself and the buffer.
__device__ bool vyre_dfa_header_ok(const unsigned* t, unsigned long long bytes) {
  if (bytes < VYRE_DFA_HEADER_WORDS * 4ull) return false;
  unsigned long long states = vyre_table_word(t + 2), classes = vyre_table_word(t + 3), patterns = vyre_table_word(t + 5);
  unsigned long long offsets_base = VYRE_DFA_TRANSITION_BASE + states * classes;
  unsigned long long ids_base = offsets_base + states + 1;
  unsigned long long lengths_base = vyre_table_word(t + 11), total = vyre_table_word(t + 12);
  return vyre_table_word(t) == VYRE_DFA_MAGIC && vyre_table_word(t + 1) == 1u && states >= 1 && classes >= 1 && classes <= 256 &&
         states * classes <= (1ull << 31) && vyre_table_word(t + 4) < states && patterns >= 1 && vyre_table_word(t + 6) >= 1 &&
         vyre_table_word(t + 7) == VYRE_DFA_CLASS_MAP_BASE && vyre_table_word(t + 8) == VYRE_DFA_TRANSITION_BASE &&
         vyre_table_word(t + 9) == offsets_base && vyre_table_word(t + 10) == ids_base && lengths_base >= ids_base &&
         total == lengths_base + patterns && total * 4ull <= bytes && vyre_table_word(t + 13) == 0u && vyre_table_word(t + 14) == 0u &&
         vyre_table_word(t + 15) == 0u;
}

__device__ void vyre_dfa_report(const unsigned* t, unsigned state, unsigned* hits, unsigned input_id, unsigned long long end) {
  unsigned offsets_base = vyre_table_word(t + 9), ids_base = vyre_table_word(t + 10), lengths_base = vyre_table_word(t + 11);
  unsigned capacity = *(volatile unsigned*)(hits + 1);
  for (unsigned k = vyre_table_word(t + offsets_base + state); k < vyre_table_word(t + offsets_base + state + 1); k++) {
    unsigned pattern = vyre_table_word(t + ids_base + k);
    unsigned long long start = end - vyre_table_word(t + lengths_base + pattern);
    unsigned index = atomicAdd(hits, 1u);
    if (index < capacity) {
      unsigned* record = hits + VYRE_HIT_HEADER_WORDS + (unsigned long long)index * VYRE_HIT_RECORD_WORDS;
      record[0] = input_id;
      record[1] = (unsigned)start;
      record[2] = (unsigned)(start >> 32);
      record[3] = pattern;
    }
  }
}

// What one DFA_STEP scans with: the table, where its hits go, and (count mode) the hits it found.
struct VyreDfaScan {
  const unsigned* t;
  const unsigned* transitions;
  const unsigned char* bytes;       // the range's byte 0
  unsigned classes;
  unsigned* hits;                   // a hit buffer, or in count mode a MatchCountLayout resource
  unsigned input_id;
  unsigned long long base;          // absolute offset of byte 0
  bool counting;
  unsigned long long found;         // count mode: hits so far, added to the counter once at the end
};

// The state `row` accepts at relative end `end` (exclusive): append its patterns' records, or count them.
__device__ __forceinline__ void vyre_dfa_accept(VyreDfaScan& s, unsigned row, unsigned long long end) {
  unsigned state = row / s.classes, offsets_base = vyre_table_word(s.t + 9);
  if (s.counting) {
    s.found += vyre_table_word(s.t + offsets_base + state + 1) - vyre_table_word(s.t + offsets_base + state);
  } else {
    vyre_dfa_report(s.t, state, s.hits, s.input_id, s.base + end);
  }
}

__device__ __forceinline__ unsigned vyre_dfa_next(const VyreDfaScan& s, unsigned row, unsigned b) {
  return vyre_table_word(s.transitions + row + vyre_table_word(s.t + VYRE_DFA_CLASS_MAP_BASE + b));
}

__device__ __forceinline__ unsigned vyre_uint4_byte(const uint4& v, unsigned k) {
  unsigned w = k < 4u ? v.x : k < 8u ? v.y : k < 12u ? v.z : v.w;
  return (w >> (8u * (k & 3u))) & 0xFFu;
}

// Scans relative bytes [from, to) from `row`, reporting ends (exclusive) above `min_end`; returns the
// final row. The host may reuse an input buffer for the next chunk: read it past L1 (L2 only, or the bus).
__device__ unsigned vyre_dfa_scan_range(VyreDfaScan& s, unsigned long long from, unsigned long long to, unsigned row,
                                        unsigned long long min_end) {
  unsigned long long i = from;
  for (; i < to && ((reinterpret_cast<unsigned long long>(s.bytes + i)) & 15ull); i++) {
    unsigned tr = vyre_dfa_next(s, row, __ldcg(s.bytes + i));
    row = tr & VYRE_DFA_ROW_MASK;
    if ((tr & VYRE_DFA_ACCEPT_FLAG) && i + 1 > min_end) vyre_dfa_accept(s, row, i + 1);
  }
  // 16-byte loads, the next one in flight while this one is consumed: mapped input crosses PCIe.
  uint4 next = i + 16 <= to ? __ldcg(reinterpret_cast<const uint4*>(s.bytes + i)) : make_uint4(0, 0, 0, 0);
  for (; i + 16 <= to; i += 16) {
    uint4 now = next;
    if (i + 32 <= to) next = __ldcg(reinterpret_cast<const uint4*>(s.bytes + i + 16));
#pragma unroll
    for (unsigned k = 0; k < 16; k++) {
      unsigned tr = vyre_dfa_next(s, row, vyre_uint4_byte(now, k));
      row = tr & VYRE_DFA_ROW_MASK;
      if ((tr & VYRE_DFA_ACCEPT_FLAG) && i + k + 1 > min_end) vyre_dfa_accept(s, row, i + k + 1);
    }
  }
  for (; i < to; i++) {
    unsigned tr = vyre_dfa_next(s, row, __ldcg(s.bytes + i));
    row = tr & VYRE_DFA_ROW_MASK;
    if ((tr & VYRE_DFA_ACCEPT_FLAG) && i + 1 > min_end) vyre_dfa_accept(s, row, i + 1);
  }
  return row;
}

__device__ vyre_result vyre_dfa_step(const VyreKernelArgs& a, const unsigned* args) {
  __threadfence();
  const VyreResource* input = vyre_resource(a, args[0]);
  const VyreResource* table = vyre_resource(a, args[3]);
  const VyreResource* hit = vyre_resource(a, args[5]);
  // Hits are counted with a device atomic, so the hit buffer must live in device memory.
  if (!input || !table || !hit || (hit->bytes & VYRE_RESOURCE_HOST_MAPPED)) return -VYRE_FAULT_RESOURCE;
  unsigned long long off = args[1], len = args[2];
  if (off + len > vyre_resource_bytes(input)) return -VYRE_FAULT_RESOURCE;
  const unsigned* t = reinterpret_cast<const unsigned*>(table->ptr);
  if (!vyre_dfa_header_ok(t, vyre_resource_bytes(table))) return -VYRE_FAULT_TABLE;
  unsigned classes = vyre_table_word(t + 3);
  if (args[4] >= vyre_table_word(t + 2)) return -VYRE_FAULT_TABLE;
  unsigned* hits = reinterpret_cast<unsigned*>(hit->ptr);
  unsigned long long hit_bytes = vyre_resource_bytes(hit);
  unsigned mode = args[VYRE_DFA_STEP_MODE_ARG];
  if (mode == VYRE_DFA_STEP_MODE_COUNT) {
    // A u64 counter per input id, added with one 64-bit atomic: 8-byte aligned.
    if (hit_bytes < VYRE_MATCH_COUNT_HEADER_WORDS * 4ull || (hit->ptr & 7ull) ||
        (VYRE_MATCH_COUNT_HEADER_WORDS + (unsigned long long)VYRE_MATCH_COUNT_COUNTER_WORDS * *(volatile unsigned*)hits) * 4ull > hit_bytes ||
        args[6] >= *(volatile unsigned*)hits) return -VYRE_FAULT_RESOURCE;
  } else if (mode != VYRE_DFA_STEP_MODE_RECORDS || hit_bytes < VYRE_HIT_HEADER_WORDS * 4ull ||
             (VYRE_HIT_HEADER_WORDS + 4ull * *(volatile unsigned*)(hits + 1)) * 4ull > hit_bytes) {
    return -VYRE_FAULT_RESOURCE;
  }
  unsigned long long base = (unsigned long long)args[7] | ((unsigned long long)args[8] << 32);
  if (base + len < base) return -VYRE_FAULT_RESOURCE;
  VyreDfaScan s = {t, t + VYRE_DFA_TRANSITION_BASE, reinterpret_cast<const unsigned char*>(input->ptr) + off, classes, hits,
                   args[6], base, mode == VYRE_DFA_STEP_MODE_COUNT, 0ull};
  vyre_dfa_scan_range(s, 0, len, args[4] * classes, args[9]);
  if (s.found) {
    atomicAdd(reinterpret_cast<unsigned long long*>(hits + VYRE_MATCH_COUNT_HEADER_WORDS) + args[6], s.found);
  }
  return VYRE_STATUS_DONE;
}

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

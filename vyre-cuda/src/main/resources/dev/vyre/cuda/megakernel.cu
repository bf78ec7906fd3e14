// vyre persistent megakernel: launched once, fed while it runs.
//
// Same semantics as dev.vyre.reference.ReferenceInterpreter (the parity suite checks it).
//
// Where things live, and why:
// - The ring is pinned host memory mapped into the device: the host writes slots at memory speed
//   and the device reads only the slots it claimed, then stores their final status there, so the
//   host sees completions without a copy or a synchronize.
// - The control block has two copies. The host-mapped one carries what the host writes (SHUTDOWN,
//   the tenant table, priority offsets, doorbells) and a mirror of everything else. The device
//   copy (`dcontrol`) is authoritative for every word the kernel changes, because atomics on
//   mapped host memory are not allowed without PCIe atomics (compute-sanitizer reports "Invalid
//   __global__ system-scoped atomic" on an H200 host) and would cross PCIe anyway. Each change is
//   also stored to the mirror; the scout re-syncs the mirror when work stops and at exit, so the
//   mirror is exact at rest, and the host takes exact snapshots with a device-to-host copy.
// - One scout warp polls the five doorbell words (control 141..145) over PCIe and mirrors them
//   into device memory; worker warps poll that mirror (an L2 hit), claim up to 32 tickets with one
//   atomicCAS on a device-memory cursor, and finish them in batches. Measured on an H200: a design
//   that polled every slot status over PCIe took 187 us per round trip.
// - The first task of each publish also has a stamped copy in the express lane (ExpressLayout),
//   which the scout reads with its poll and runs at once: one PCIe read per task instead of two.
//   An express helper warp (block 1) polls the same way on its own schedule, so that a task is
//   seen sooner whenever its host publishes it.
// - Warps that wait poll device memory only, each group on lines of its own (VyreDeviceState).
//
// Compiled at run time by NVRTC. The wire constants (VYRE_SLOT_WORDS, VYRE_CTL_*, VYRE_OP_*, ...)
// are not defined here: KernelSource generates them from the Java descriptors (WireDefines) and
// puts them first, so the host and the kernel cannot drift apart.

// Continuations a kernel holds for idle workers; past that, a lane re-runs its own (backing off).
#define VYRE_CONTINUATION_CAPACITY 256u

#ifndef VYRE_EXPRESS_HELPERS
#define VYRE_EXPRESS_HELPERS 1u
#endif

// Result of one operation: a slot status (>= 0) or a negated fault reason.
typedef int vyre_result;

struct VyreResource {
  unsigned long long ptr;    // device-visible address; 0 = unused handle
  unsigned long long bytes;  // length; bit 63 set = pinned host memory mapped into the device
};
static_assert(sizeof(VyreResource) == VYRE_RESOURCE_ENTRY_BYTES, "VyreResource must match ResourceTableLayout.ENTRY_BYTES");

// Device-memory state shared by all warps; the host zeroes it before launch. Three 128-byte L2
// lines, by who touches them: a thousand idle warps polling a line queue in front of every atomic
// on it (measured with scripts/kernel-lab: the claim CAS and the counters of a one-task round trip
// took about 0.5 us longer while idle workers polled the claim line), so idle warps poll only the
// wake line, and the claim cursors live where only claims go.
struct VyreDeviceState {
  // Line 0: claims (CAS, atomicAdd) and the doorbell mirrors they compare with.
  unsigned long long claim[VYRE_PRIORITY_LEVELS];  // claim cursors (tickets claimed per level)
  unsigned doorbell[VYRE_PRIORITY_LEVELS];         // scout's mirror of control[141..145]
  unsigned line0_pad[17];
  // Line 1: what idle warps poll, one 16-byte load: nothing else changes here.
  unsigned wake;                                   // bumped by the scout when it leaves work for the workers
  unsigned abort;                                  // set by the host (device memset): every warp traps
  unsigned shutdown;                               // scout's mirror of control[0]
  unsigned hot;                                    // 1 while the scout polls without sleeping (the express helper polls too)
  unsigned continuations;                          // slots waiting in the continuation queue (idle workers take them)
  unsigned line1_pad[27];
  // Line 2: the tenant table's mirror and the warp count.
  unsigned tenant_base;                            // mirror of control[2]
  unsigned tenant_mask[VYRE_MAX_TENANTS];          // mirror of the mask table
  unsigned live_warps;                             // warps still in their loop
  unsigned line2_pad;
  // The continuation queue: slots whose handler finished YIELD or REQUEUE, taken again by idle
  // workers (a bounded multi-producer, multi-consumer ring; a cell's tag is 2 * lap while free for
  // that lap and 2 * lap + 1 once it holds a slot, so zeroed memory starts it empty).
  unsigned long long continuation_head, continuation_tail;
  unsigned continuation_tag[VYRE_CONTINUATION_CAPACITY];
  unsigned continuation_slot[VYRE_CONTINUATION_CAPACITY];
  // Each queued continuation's slot words as its last run left them: the worker that takes it runs
  // from these, not from the ring in host memory (a PCIe read, and a system-scope fence before
  // queueing so that the read would see the arguments), which made a task wait about 10 us between
  // a yield and its next run (ContinuationStressProbe tyield).
  unsigned continuation_words[VYRE_CONTINUATION_CAPACITY][VYRE_SLOT_WORDS];
  // Built with -DVYRE_TRACE only (vyre.cuda.trace): where a task's time goes on the device, in
  // globaltimer ns, summed over tasks: work seen -> claimed and slot in hand -> run -> counters
  // added -> status stored (a single task stores first: its `counted` includes the store); and for
  // the scout's hot polls: the period, the time from issue to data (PCIe), and from the last status
  // store to the next issue. Meaningful one task at a time.
  unsigned long long trace_seen;                   // when the scout last saw a doorbell change
  unsigned long long trace_stored;                 // when a status was last stored
  unsigned long long trace_sum[7];                 // seen->start, start->ran, ran->counted, counted->stored, poll, issue->data, stored->issue
  unsigned long long trace_count[3];               // tasks traced, polls traced, tasks run from express copies
};
// The host allocates VYRE_DEVICE_STATE_BYTES, writes abort at VYRE_DEVICE_STATE_ABORT_OFFSET and
// reads the trace from VYRE_DEVICE_STATE_TRACE_OFFSET (DeviceStateLayout). NVRTC has no offsetof:
// the fields above are laid out without implicit padding, and the nvcc layout check compares them.
static_assert(sizeof(VyreDeviceState) == VYRE_DEVICE_STATE_BYTES, "VyreDeviceState must match DeviceStateLayout.BYTES");

struct VyreKernelArgs {
  unsigned* control;        // host-mapped: host-written words, and the mirror of the rest
  unsigned* dcontrol;       // device memory: authoritative for every word the kernel changes
  unsigned control_words;
  unsigned* ring;           // host-mapped
  unsigned slot_count;
  unsigned* debug_log;      // device memory (its cursor is atomic); copied out on request and at exit
  unsigned debug_words;
  VyreDeviceState* state;
  const VyreResource* resources;
  unsigned resource_capacity;
  unsigned scout_idle_ns;   // longest scout sleep while idle (bounds idle PCIe traffic and wake latency)
  unsigned worker_idle_ns;  // longest worker sleep while idle (device-memory polling only)
  unsigned scout_hot_ns;    // after the last doorbell change the scout polls without sleeping this long
  const uint4* express;     // host-mapped: ExpressLayout, VYRE_EXPRESS_LINES lines per ring slot
  unsigned* io_queue;       // host-mapped: IoQueueLayout, VYRE_IO_SLOTS request slots
  unsigned* io_owner;       // device memory: 1 while a task owns that IO slot (vyre_io_read .. vyre_io_release)
};
static_assert(sizeof(VyreKernelArgs) == VYRE_KERNEL_ARGS_BYTES, "VyreKernelArgs must match KernelArgsLayout.BYTES");

__device__ __forceinline__ unsigned vyre_load_sys(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void vyre_store_sys(unsigned* p, unsigned v) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

// A store with nothing to order before it: no system-scope fence (about a microsecond on PCIe).
__device__ __forceinline__ void vyre_store_sys_relaxed(unsigned* p, unsigned v) {
  asm volatile("st.relaxed.sys.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ unsigned vyre_load_gpu(const volatile unsigned* p) { return *p; }

// A line of shared state as lane 0 read it, the same in every lane. A warp's lanes that read
// such a word each for themselves can see it at different moments (they need not be converged:
// lane 0 alone runs a continuation), and a branch taken by some lanes and not others pairs their
// next __shfl_sync/__ballot_sync with different ones: garbage slot numbers, then
// CUDA_ERROR_ILLEGAL_ADDRESS (ContinuationStressProbe, cuda-gdb on the core dump). Every branch
// on shared state that a warp-wide operation follows is taken on one value for the warp.
__device__ __forceinline__ uint4 vyre_warp_view(const uint4* p) {
  __syncwarp();
  uint4 v = make_uint4(0u, 0u, 0u, 0u);
  if ((threadIdx.x & 31u) == 0u) v = __ldcv(p);
  v.x = __shfl_sync(0xFFFFFFFFu, v.x, 0);
  v.y = __shfl_sync(0xFFFFFFFFu, v.y, 0);
  v.z = __shfl_sync(0xFFFFFFFFu, v.z, 0);
  v.w = __shfl_sync(0xFFFFFFFFu, v.w, 0);
  return v;
}

__device__ __forceinline__ unsigned long long vyre_globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

// Words the host writes while the kernel runs; the kernel reads them from the mapped copy.
__device__ __forceinline__ bool vyre_host_owned(unsigned i) {
  return i == VYRE_CTL_SHUTDOWN || (i >= VYRE_CTL_TENANT_BASE && i < 32u) ||
         (i >= VYRE_CTL_PRIORITY_OFFSETS_BASE && i < VYRE_CTL_PRIORITY_OFFSETS_BASE + 6u) ||
         (i >= VYRE_CTL_PUBLISH_SEQ_BASE && i < VYRE_CTL_PUBLISH_SEQ_BASE + VYRE_PRIORITY_LEVELS);
}

__device__ __forceinline__ unsigned vyre_read(const VyreKernelArgs& a, unsigned i) {
  return vyre_host_owned(i) ? vyre_load_sys(a.control + i) : vyre_load_gpu(a.dcontrol + i);
}

// The mirror store that follows every change of a device control word.
__device__ __forceinline__ void vyre_mirror(const VyreKernelArgs& a, unsigned i, unsigned value) {
  *(volatile unsigned*)(a.control + i) = value;
}

__device__ __forceinline__ unsigned vyre_add(const VyreKernelArgs& a, unsigned i, unsigned delta) {
  unsigned now = atomicAdd(a.dcontrol + i, delta) + delta;
  vyre_mirror(a, i, now);
  return now;
}

__device__ __forceinline__ void vyre_write(const VyreKernelArgs& a, unsigned i, unsigned value) {
  atomicExch(a.dcontrol + i, value);
  vyre_mirror(a, i, value);
}

// Copies every kernel-owned word of the device control block to the mirror (lanes stride it);
// the claim cursors (words 146..155) come from the device state, where the warps keep them.
__device__ void vyre_resync(const VyreKernelArgs& a, unsigned lane, unsigned lanes) {
  const volatile unsigned* claims = reinterpret_cast<const volatile unsigned*>(a.state->claim);
  for (unsigned i = lane; i < a.control_words; i += lanes) {
    if (i >= VYRE_CTL_CLAIM_SEQ_BASE && i < VYRE_CTL_CLAIM_SEQ_BASE + 2u * VYRE_PRIORITY_LEVELS) {
      vyre_mirror(a, i, claims[i - VYRE_CTL_CLAIM_SEQ_BASE]);
    } else if (!vyre_host_owned(i)) {
      vyre_mirror(a, i, vyre_load_gpu(a.dcontrol + i));
    }
  }
}

// True when [start, start + count) lies inside the control block.
__device__ __forceinline__ bool vyre_in_control(const VyreKernelArgs& a, unsigned start, unsigned long long count) {
  return (unsigned long long)start + count <= (unsigned long long)a.control_words;
}

__device__ vyre_result vyre_user_opcode(const VyreKernelArgs& a, unsigned slot, unsigned op, unsigned* args, bool* handled);

// ---- DFA_STEP (opcode 6): mirrors dev.vyre.runtime.scan.DfaStep; see DfaStepArgs for the args ----
__device__ __forceinline__ const VyreResource* vyre_resource(const VyreKernelArgs& a, unsigned handle) {
  if (handle >= a.resource_capacity || a.resources[handle].ptr == 0ull) return nullptr;
  return &a.resources[handle];
}

__device__ __forceinline__ unsigned long long vyre_resource_bytes(const VyreResource* r) {
  return r->bytes & ~VYRE_RESOURCE_HOST_MAPPED;
}

// DfaTableLayout.headerProblem: true when the header is consistent with itself and the buffer.
__device__ bool vyre_dfa_header_ok(const unsigned* t, unsigned long long bytes) {
  if (bytes < VYRE_DFA_HEADER_WORDS * 4ull) return false;
  unsigned long long states = __ldg(t + 2), classes = __ldg(t + 3), patterns = __ldg(t + 5);
  unsigned long long offsets_base = VYRE_DFA_TRANSITION_BASE + states * classes;
  unsigned long long ids_base = offsets_base + states + 1;
  unsigned long long lengths_base = __ldg(t + 11), total = __ldg(t + 12);
  return __ldg(t) == VYRE_DFA_MAGIC && __ldg(t + 1) == 1u && states >= 1 && classes >= 1 && classes <= 256 &&
         states * classes <= (1ull << 31) && __ldg(t + 4) < states && patterns >= 1 && __ldg(t + 6) >= 1 &&
         __ldg(t + 7) == VYRE_DFA_CLASS_MAP_BASE && __ldg(t + 8) == VYRE_DFA_TRANSITION_BASE &&
         __ldg(t + 9) == offsets_base && __ldg(t + 10) == ids_base && lengths_base >= ids_base &&
         total == lengths_base + patterns && total * 4ull <= bytes && __ldg(t + 13) == 0u && __ldg(t + 14) == 0u &&
         __ldg(t + 15) == 0u;
}

__device__ void vyre_dfa_report(const unsigned* t, unsigned state, unsigned* hits, unsigned input_id, unsigned long long end) {
  unsigned offsets_base = __ldg(t + 9), ids_base = __ldg(t + 10), lengths_base = __ldg(t + 11);
  unsigned capacity = *(volatile unsigned*)(hits + 1);
  for (unsigned k = __ldg(t + offsets_base + state); k < __ldg(t + offsets_base + state + 1); k++) {
    unsigned pattern = __ldg(t + ids_base + k);
    unsigned long long start = end - __ldg(t + lengths_base + pattern);
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

__device__ vyre_result vyre_dfa_step(const VyreKernelArgs& a, const unsigned* args) {
  const VyreResource* input = vyre_resource(a, args[0]);
  const VyreResource* table = vyre_resource(a, args[3]);
  const VyreResource* hit = vyre_resource(a, args[5]);
  // Hits are counted with a device atomic, so the hit buffer must live in device memory.
  if (!input || !table || !hit || (hit->bytes & VYRE_RESOURCE_HOST_MAPPED)) return -VYRE_FAULT_RESOURCE;
  unsigned long long off = args[1], len = args[2];
  if (off + len > vyre_resource_bytes(input)) return -VYRE_FAULT_RESOURCE;
  const unsigned* t = reinterpret_cast<const unsigned*>(table->ptr);
  if (!vyre_dfa_header_ok(t, vyre_resource_bytes(table))) return -VYRE_FAULT_TABLE;
  unsigned classes = __ldg(t + 3);
  if (args[4] >= __ldg(t + 2)) return -VYRE_FAULT_TABLE;
  unsigned* hits = reinterpret_cast<unsigned*>(hit->ptr);
  unsigned long long hit_bytes = vyre_resource_bytes(hit);
  if (hit_bytes < VYRE_HIT_HEADER_WORDS * 4ull ||
      (VYRE_HIT_HEADER_WORDS + 4ull * *(volatile unsigned*)(hits + 1)) * 4ull > hit_bytes) return -VYRE_FAULT_RESOURCE;
  unsigned long long base = (unsigned long long)args[7] | ((unsigned long long)args[8] << 32);
  if (base + len < base) return -VYRE_FAULT_RESOURCE;
  unsigned report_from = args[9];
  unsigned input_id = args[6];
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(input->ptr) + off;
  const unsigned* transitions = t + VYRE_DFA_TRANSITION_BASE;
  unsigned row = args[4] * classes;
  // The host may reuse an input buffer for the next chunk: read it past L1 (L2 only, or the bus).
  unsigned long long i = 0;
  for (; i < len && ((reinterpret_cast<unsigned long long>(bytes + i)) & 15ull); i++) {
    unsigned tr = __ldg(transitions + row + __ldg(t + VYRE_DFA_CLASS_MAP_BASE + __ldcg(bytes + i)));
    row = tr & VYRE_DFA_ROW_MASK;
    if ((tr & VYRE_DFA_ACCEPT_FLAG) && i + 1 > report_from) vyre_dfa_report(t, row / classes, hits, input_id, base + i + 1);
  }
  // 16-byte loads, the next one in flight while this one is consumed: mapped input crosses PCIe.
  uint4 next = i + 16 <= len ? __ldcg(reinterpret_cast<const uint4*>(bytes + i)) : make_uint4(0, 0, 0, 0);
  for (; i + 16 <= len; i += 16) {
    uint4 now = next;
    if (i + 32 <= len) next = __ldcg(reinterpret_cast<const uint4*>(bytes + i + 16));
    unsigned words[4] = {now.x, now.y, now.z, now.w};
#pragma unroll
    for (unsigned k = 0; k < 16; k++) {
      unsigned b = (words[k >> 2] >> (8u * (k & 3u))) & 0xFFu;
      unsigned tr = __ldg(transitions + row + __ldg(t + VYRE_DFA_CLASS_MAP_BASE + b));
      row = tr & VYRE_DFA_ROW_MASK;
      if ((tr & VYRE_DFA_ACCEPT_FLAG) && i + k + 1 > report_from) vyre_dfa_report(t, row / classes, hits, input_id, base + i + k + 1);
    }
  }
  for (; i < len; i++) {
    unsigned tr = __ldg(transitions + row + __ldg(t + VYRE_DFA_CLASS_MAP_BASE + __ldcg(bytes + i)));
    row = tr & VYRE_DFA_ROW_MASK;
    if ((tr & VYRE_DFA_ACCEPT_FLAG) && i + 1 > report_from) vyre_dfa_report(t, row / classes, hits, input_id, base + i + 1);
  }
  return VYRE_STATUS_DONE;
}

// One operation with the reference semantics: metrics, built-ins, user handlers, bounds checks.
__device__ vyre_result vyre_dispatch(const VyreKernelArgs& a, unsigned slot, unsigned op, unsigned* args, unsigned arg0, unsigned arg1, unsigned arg2, bool meter) {
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
      vyre_result r = vyre_user_opcode(a, slot, op, args, &handled);
      return handled ? r : -VYRE_FAULT_UNKNOWN_OPCODE;
    }
  }
}

__device__ __forceinline__ unsigned vyre_arg_byte(const unsigned* args, unsigned k) {
  return (args[k >> 2] >> (8u * (k & 3u))) & 0xFFu;
}

// Runs every packed op whose arguments fit the 12 argument words (DECISIONS.md §3.6).
__device__ vyre_result vyre_packed(const VyreKernelArgs& a, unsigned slot, unsigned* args) {
  unsigned count = vyre_arg_byte(args, 0);
  unsigned total = vyre_arg_byte(args, 1);
  unsigned metadata = (2u + 2u * count + 3u) / 4u;
  if (metadata > VYRE_ARGS_PER_SLOT || metadata + total > VYRE_ARGS_PER_SLOT) return -VYRE_FAULT_PACKED;
  for (unsigned i = 0; i < count; i++) {
    unsigned op = vyre_arg_byte(args, 2 + 2 * i);
    unsigned offset = vyre_arg_byte(args, 3 + 2 * i);
    unsigned end = i + 1 < count ? vyre_arg_byte(args, 3 + 2 * (i + 1)) : total;
    if (end < offset || metadata + end > VYRE_ARGS_PER_SLOT) return -VYRE_FAULT_PACKED;
    // DFA_STEP reads ten argument words of its own slot; a packed operation has at most three.
    if (op == VYRE_OP_DFA_STEP) return -VYRE_FAULT_PACKED;
    unsigned first = metadata + offset;
    unsigned own = end - offset;
    vyre_result r = vyre_dispatch(a, slot, op, args, own > 0 ? args[first] : 0u, own > 1 ? args[first + 1] : 0u,
                                  own > 2 ? args[first + 2] : 0u, true);
    if (r < 0) return r;
  }
  return VYRE_STATUS_DONE;
}

__device__ __forceinline__ bool vyre_authorized(const VyreKernelArgs& a, unsigned tenant) {
  if (tenant >= VYRE_MAX_TENANTS) return false;
  VyreDeviceState* s = a.state;
  unsigned base = vyre_load_gpu(&s->tenant_base);
  if (base == VYRE_CTL_TENANT_TABLE_START) return vyre_load_gpu(&s->tenant_mask[tenant]) != 0u;
  unsigned long long word = (unsigned long long)base + tenant;  // someone moved the table: read it directly
  return word < a.control_words && vyre_read(a, (unsigned)word) != 0u;
}

// Executes one claimed slot and returns its final status; on FAULT the reason is stored in the
// slot's priority word and returned through fault_out. `known_authorized` is 0 or 1 when the
// caller already read the tenant's mask word, -1 to look it up.
__device__ unsigned vyre_execute_slot(const VyreKernelArgs& a, unsigned slot, unsigned* words, int known_authorized, unsigned* opcode_out, unsigned* tenant_out, unsigned* fault_out) {
  unsigned* base = a.ring + (unsigned long long)slot * VYRE_SLOT_WORDS;
  unsigned opcode = words[1];
  unsigned tenant = words[2];
  *opcode_out = opcode;
  *tenant_out = tenant;
  unsigned* args = words + 4;
  vyre_result r;
  if (known_authorized >= 0 ? known_authorized == 0 : !vyre_authorized(a, tenant)) {
    r = -VYRE_FAULT_TENANT;
  } else if (opcode == VYRE_OP_PACKED_SLOT) {
    r = vyre_packed(a, slot, args);
  } else {
    // Outer metrics are counted per warp by the caller; a continuation (YIELD, REQUEUE) goes back
    // to the caller, which stores it and queues the slot (vyre_continue).
    r = vyre_dispatch(a, slot, opcode, args, args[0], args[1], args[2], false);
  }
  if (r < 0) {
    *fault_out = (unsigned)(-r);
    base[3] = (unsigned)(-r);  // the fault reason replaces the consumed priority word
    return VYRE_STATUS_FAULT;
  }
  *fault_out = 0;
  return (unsigned)r;
}

// Lane 0 takes up to 32 tickets of the highest-priority level with work, honouring the
// starvation guard; returns the level or -1. vyre would starve CRITICAL/HIGH forever when the
// guard is up and nothing lower waits; we fall back to them. Workers take tickets with atomicAdd,
// not a CAS loop: a thousand warps retrying one CAS serialize on it. Racing warps may take
// tickets just past the doorbell and wait for them to be published (vyre_run_batch). The scout
// (`exact`) uses a CAS instead: it must never wait for a doorbell that only it can mirror.
__device__ int vyre_claim(const VyreKernelArgs& a, const unsigned* offsets, bool exact, unsigned long long* first, unsigned* count) {
  VyreDeviceState* s = a.state;
  bool force_lower = vyre_load_gpu(a.dcontrol + VYRE_CTL_PRIORITY_STARVATION_COUNTER) >= VYRE_STARVATION_THRESHOLD;
  for (int pass = force_lower ? 0 : 1; pass < 2; pass++) {
    for (unsigned p = (pass == 0 ? 2u : 0u); p < VYRE_PRIORITY_LEVELS; p++) {
      if (offsets[p + 1] == offsets[p]) continue;
      unsigned long long claimed = *(volatile unsigned long long*)&s->claim[p];
      int waiting = (int)(vyre_load_gpu(&s->doorbell[p]) - (unsigned)claimed);
      if (waiting <= 0) continue;
      unsigned n = waiting > 32 ? 32u : (unsigned)waiting;
      if (exact) {
        if (atomicCAS(&s->claim[p], claimed, claimed + n) != claimed) continue;
        *first = claimed;
      } else {
        *first = atomicAdd(&s->claim[p], (unsigned long long)n);
      }
      *count = n;
      return (int)p;
    }
  }
  return -1;
}

// Reads the slots of the lanes in `ready` into each lane's `words`, four lanes per slot (one
// 16-byte quarter each), so eight slots cost one load instruction: one PCIe round trip instead
// of four loads in a row per slot. Uncached: the host wrote the slots before the doorbell.
__device__ void vyre_read_slots(const VyreKernelArgs& a, unsigned lane, unsigned ready, unsigned slot, unsigned* words) {
  for (unsigned round = 0; round < 4u; round++) {
    unsigned group = (ready >> (8u * round)) & 0xFFu;
    if (group == 0u) continue;  // the same for every lane
    unsigned owner = 8u * round + (lane >> 2);
    unsigned owner_slot = __shfl_sync(0xFFFFFFFFu, slot, owner);
    uint4 v = make_uint4(0u, 0u, 0u, 0u);
    if ((group >> (lane >> 2)) & 1u) {
      v = __ldcv(reinterpret_cast<const uint4*>(a.ring + (unsigned long long)owner_slot * VYRE_SLOT_WORDS) + (lane & 3u));
    }
    // Lane o of this round takes quarter q from lane 4 * (o - 8 * round) + q.
    bool mine = lane >= 8u * round && lane < 8u * round + 8u;
    unsigned first = mine ? 4u * (lane - 8u * round) : 0u;
#pragma unroll
    for (unsigned q = 0; q < 4u; q++) {
      unsigned x = __shfl_sync(0xFFFFFFFFu, v.x, first + q), y = __shfl_sync(0xFFFFFFFFu, v.y, first + q);
      unsigned z = __shfl_sync(0xFFFFFFFFu, v.z, first + q), w = __shfl_sync(0xFFFFFFFFu, v.w, first + q);
      if (mine) {
        words[4 * q] = x; words[4 * q + 1] = y; words[4 * q + 2] = z; words[4 * q + 3] = w;
      }
    }
  }
}

// Adds a finished batch of `tasks` tasks of priority `level` to the scheduling and outcome counters.
__device__ __forceinline__ void vyre_count_batch(unsigned* d, int level, unsigned tasks, unsigned done, unsigned faults) {
  atomicAdd(d + VYRE_CTL_PRIORITY_FAIRNESS_BASE + level, tasks);
  if (level <= 1) atomicAdd(d + VYRE_CTL_PRIORITY_STARVATION_COUNTER, 1u);
  else *(volatile unsigned*)(d + VYRE_CTL_PRIORITY_STARVATION_COUNTER) = 0u;
  if (done) atomicAdd(d + VYRE_CTL_DONE_COUNT, done);
  if (faults) atomicAdd(d + VYRE_CTL_FAULT_COUNT, faults);
}

__device__ __forceinline__ bool vyre_is_continuation(unsigned status) {
  return status == VYRE_STATUS_YIELD || status == VYRE_STATUS_REQUEUE;
}

// A continuation's arguments (its state) into its ring slot at `base`, for the host to see: its
// next run takes them from the continuation queue.
__device__ __forceinline__ void vyre_store_continuation_args(unsigned* base, const unsigned* words) {
  for (unsigned w = VYRE_SLOT_WORDS - VYRE_ARGS_PER_SLOT; w < VYRE_SLOT_WORDS; w++) base[w] = words[w];
}

// Stores the statuses of the lanes in `ready`. Results must reach the host before their status
// does, which costs a system-scope release (a fence that waits for every store and atomic in
// flight); a warp whose every slot is a NOP that finished DONE, or a continuation (YIELD, REQUEUE:
// the host reads no result of those, and the next run takes the queued words), stores without one.
__device__ __forceinline__ void vyre_store_statuses(const VyreKernelArgs& a, bool mine, unsigned slot, unsigned status, unsigned opcode) {
  bool final_result = !vyre_is_continuation(status) && (opcode != VYRE_OP_NOP || status != VYRE_STATUS_DONE);
  bool results = __any_sync(0xFFFFFFFFu, mine && final_result);
  unsigned* status_word = a.ring + (unsigned long long)slot * VYRE_SLOT_WORDS;
  if (mine) {
    if (results) vyre_store_sys(status_word, status);
    else vyre_store_sys_relaxed(status_word, status);
  }
}

// Queues slot `slot`, whose YIELD or REQUEUE status is stored, with its words as this run left them
// (`words`), for an idle worker; false when the queue is full. The worker runs from the queued
// words, so nothing written to the ring needs to reach the host first.
__device__ bool vyre_queue_continuation(const VyreKernelArgs& a, unsigned slot, const unsigned* words) {
  VyreDeviceState* s = a.state;
  if (atomicAdd(&s->continuations, 1u) >= VYRE_CONTINUATION_CAPACITY) {
    atomicSub(&s->continuations, 1u);
    return false;
  }
  unsigned long long ticket = atomicAdd(&s->continuation_tail, 1ull);
  unsigned cell = (unsigned)(ticket % VYRE_CONTINUATION_CAPACITY);
  unsigned lap = (unsigned)(ticket / VYRE_CONTINUATION_CAPACITY);
  // The count kept this cell's last slot taken, or being taken: wait for its taker to free it.
  while (vyre_load_gpu(&s->continuation_tag[cell]) != 2u * lap) __nanosleep(32);
  s->continuation_slot[cell] = slot;
  for (unsigned w = 0; w < VYRE_SLOT_WORDS; w++) s->continuation_words[cell][w] = words[w];
  __threadfence();
  atomicExch(&s->continuation_tag[cell], 2u * lap + 1u);
  return true;
}

// Takes a queued continuation's slot, and its words into `words`; -1 when none is ready.
__device__ int vyre_take_continuation(const VyreKernelArgs& a, unsigned* words) {
  VyreDeviceState* s = a.state;
  while (true) {
    unsigned long long head = *(volatile unsigned long long*)&s->continuation_head;
    unsigned cell = (unsigned)(head % VYRE_CONTINUATION_CAPACITY);
    unsigned lap = (unsigned)(head / VYRE_CONTINUATION_CAPACITY);
    if (vyre_load_gpu(&s->continuation_tag[cell]) != 2u * lap + 1u) return -1;
    if (atomicCAS(&s->continuation_head, head, head + 1ull) == head) {
      __threadfence();
      unsigned slot = vyre_load_gpu(&s->continuation_slot[cell]);
      for (unsigned w = 0; w < VYRE_SLOT_WORDS; w++) words[w] = vyre_load_gpu(&s->continuation_words[cell][w]);
      __threadfence();
      atomicExch(&s->continuation_tag[cell], 2u * lap + 2u);
      atomicSub(&s->continuations, 1u);
      return (int)slot;
    }
  }
}

// A continuation's re-run, kept out of line: the dispatch inlined into every caller made the
// kernel's compile three times longer (NVRTC compiles it at each new set of user opcodes).
__device__ __noinline__ unsigned vyre_execute_slot_again(const VyreKernelArgs& a, unsigned slot, unsigned* words) {
  unsigned opcode, tenant, fault;
  return vyre_execute_slot(a, slot, words, -1, &opcode, &tenant, &fault);
}

// Stores what a continuation's run left in slot `slot`: a YIELD or REQUEUE with the handler's
// arguments (its state), true; or a final status, counted (the run was claimed and metered when it
// first ran), false. The ring's copy of a continuation is for the host to see (telemetry, the
// shutdown report): the next run takes the queued words, so these stores need no release.
__device__ bool vyre_store_continuation_run(const VyreKernelArgs& a, unsigned slot, const unsigned* words, unsigned status) {
  unsigned* base = a.ring + (unsigned long long)slot * VYRE_SLOT_WORDS;
  if (vyre_is_continuation(status)) {
    vyre_store_continuation_args(base, words);
    vyre_store_sys_relaxed(base, status);
    return true;
  }
  if (status == VYRE_STATUS_DONE) {
    atomicAdd(a.dcontrol + VYRE_CTL_DONE_COUNT, 1u);
  } else if (status == VYRE_STATUS_FAULT) {
    atomicAdd(a.dcontrol + VYRE_CTL_FAULT_COUNT, 1u);
  }
  vyre_store_sys(base, status);
  return false;
}

// A lane's slot finished YIELD or REQUEUE (its status and arguments stored): count it and queue it
// for an idle worker, so that neither this warp (the scout's, perhaps) nor the tasks behind it
// wait for it. With the queue full the lane re-runs it in place, backing off between runs, and
// leaves it as it is once the kernel is shutting down (SHUTDOWN read from the host's word: the
// scout, which mirrors it, may be this lane).
__device__ __noinline__ void vyre_continue(const VyreKernelArgs& a, unsigned slot, unsigned* words) {
  unsigned backoff_ns = 32;
  do {
    // Fire and forget (the scout re-syncs the mirror): waiting for the count's old value took a
    // device round trip from every yield's path to its next run.
    atomicAdd(a.dcontrol + VYRE_CTL_CONTINUATION_COUNT, 1u);
    if (vyre_queue_continuation(a, slot, words)) return;
    if (vyre_load_gpu(&a.state->abort)) __trap();
    if (vyre_load_gpu(&a.state->shutdown) || vyre_read(a, VYRE_CTL_SHUTDOWN)) return;
    __nanosleep(backoff_ns);
    backoff_ns = backoff_ns * 2u > a.worker_idle_ns ? a.worker_idle_ns : backoff_ns * 2u;
  } while (vyre_store_continuation_run(a, slot, words, vyre_execute_slot_again(a, slot, words)));
}

// Runs a queued continuation once more, on one lane, from its words as its last run left them
// (arguments included); queued again if it yields again.
__device__ __noinline__ void vyre_run_continuation_on_lane(const VyreKernelArgs& a, unsigned slot, unsigned* words) {
  if (vyre_store_continuation_run(a, slot, words, vyre_execute_slot_again(a, slot, words))) vyre_continue(a, slot, words);
}

// Finishes the lanes in `ready` (one claimed slot each, its words in `words`): executes, adds the
// warp's counters with fire-and-forget device atomics (the scout re-syncs the mirror) and stores
// the statuses. A batch stores them last. A single task (every express task) stores its status
// first: its release then waits for nothing but its own result, and the round trip does not wait
// for the counters (which land in device memory well before the host, having seen DONE, could
// copy them out: a snapshot is a DMA issued after that).
__device__ void vyre_finish(const VyreKernelArgs& a, unsigned lane, unsigned ready, int level, unsigned slot, unsigned* words, int known_authorized) {
  bool mine = (ready >> lane) & 1u;
  unsigned status = 0, opcode = 0xFFFFFFFFu, tenant = 0, fault = 0;
#ifdef VYRE_TRACE
  unsigned long long t_start = vyre_globaltimer();
#endif
  if (mine) status = vyre_execute_slot(a, slot, words, known_authorized, &opcode, &tenant, &fault);
#ifdef VYRE_TRACE
  unsigned long long t_ran = vyre_globaltimer();
#endif
  bool continuation = mine && vyre_is_continuation(status);
  if (continuation) vyre_store_continuation_args(a.ring + (unsigned long long)slot * VYRE_SLOT_WORDS, words);
  bool single = (ready & (ready - 1u)) == 0u;
  if (single) vyre_store_statuses(a, mine, slot, status, opcode);
  bool metered = mine && fault != (unsigned)VYRE_FAULT_TENANT && opcode < VYRE_METERED_OPCODES;
  unsigned* d = a.dcontrol;
  if (!single) {
    // Several tasks: one atomic per distinct opcode and tenant, and one per total.
    unsigned metered_lanes = __ballot_sync(0xFFFFFFFFu, metered);
    if (metered) {
      unsigned same = __match_any_sync(metered_lanes, opcode);
      if (lane == __ffs(same) - 1) atomicAdd(d + VYRE_CTL_METRICS_BASE + opcode, (unsigned)__popc(same));
    }
    if (mine) {
      unsigned same = __match_any_sync(ready, tenant & 31u);
      if (lane == __ffs(same) - 1) atomicAdd(d + VYRE_CTL_TENANT_FAIRNESS_BASE + (tenant & 31u), (unsigned)__popc(same));
    }
    unsigned done = __popc(__ballot_sync(0xFFFFFFFFu, mine && status == VYRE_STATUS_DONE));
    unsigned faults = __popc(__ballot_sync(0xFFFFFFFFu, mine && status == VYRE_STATUS_FAULT));
    if (lane == 0) vyre_count_batch(d, level, (unsigned)__popc(ready), done, faults);
  } else if (mine) {
    // One task: its lane adds each counter itself. The aggregation above would merge nothing,
    // and its __match_any_sync made a round trip 0.3 us longer (scripts/kernel-lab).
    if (metered) atomicAdd(d + VYRE_CTL_METRICS_BASE + opcode, 1u);
    atomicAdd(d + VYRE_CTL_TENANT_FAIRNESS_BASE + (tenant & 31u), 1u);
    vyre_count_batch(d, level, 1u, status == VYRE_STATUS_DONE, status == VYRE_STATUS_FAULT);
  }
#ifdef VYRE_TRACE
  unsigned long long t_counted = vyre_globaltimer();
#endif
  if (!single) vyre_store_statuses(a, mine, slot, status, opcode);
  if (continuation) vyre_continue(a, slot, words);
#ifdef VYRE_TRACE
  if (mine) {
    unsigned long long t_stored = vyre_globaltimer();
    unsigned long long seen = *(volatile unsigned long long*)&a.state->trace_seen;
    atomicAdd(&a.state->trace_sum[0], t_start > seen ? t_start - seen : 0ull);
    atomicAdd(&a.state->trace_sum[1], t_ran - t_start);
    atomicAdd(&a.state->trace_sum[2], t_counted - t_ran);
    atomicAdd(&a.state->trace_sum[3], t_stored - t_counted);
    atomicAdd(&a.state->trace_count[0], 1ull);
    *(volatile unsigned long long*)&a.state->trace_stored = t_stored;
  }
#endif
}

// An idle worker takes a queued continuation and runs it on its lane 0; false when none was queued.
__device__ bool vyre_run_continuation(const VyreKernelArgs& a, unsigned lane) {
  int taken = -1;
  if (lane == 0) {
    unsigned words[VYRE_SLOT_WORDS];
    taken = vyre_take_continuation(a, words);
    if (taken >= 0) vyre_run_continuation_on_lane(a, (unsigned)taken, words);
  }
  return __shfl_sync(0xFFFFFFFFu, taken, 0) >= 0;
}

// One warp claims a batch (lane 0) and runs it, one slot per lane, as its tickets are
// published; false when nothing waited.
__device__ bool vyre_run_batch(const VyreKernelArgs& a, unsigned lane, const unsigned* offsets, bool scout) {
  VyreDeviceState* s = a.state;
  int level = -1;
  unsigned long long first = 0;
  unsigned count = 0;
  if (lane == 0) level = vyre_claim(a, offsets, scout, &first, &count);
  level = __shfl_sync(0xFFFFFFFFu, level, 0);
  if (level < 0) return false;
  first = __shfl_sync(0xFFFFFFFFu, first, 0);
  count = __shfl_sync(0xFFFFFFFFu, count, 0);
  unsigned length = offsets[level + 1] - offsets[level];
  unsigned long long ticket = first + lane;
  unsigned slot = offsets[level] + (unsigned)(ticket % length);
  unsigned remaining = count >= 32 ? 0xFFFFFFFFu : ((1u << count) - 1u);
  unsigned sleep_ns = 0;
  while (remaining) {
    unsigned bell = vyre_load_gpu(&s->doorbell[level]);
    unsigned ready = __ballot_sync(0xFFFFFFFFu, ((remaining >> lane) & 1u) && (int)(bell - (unsigned)ticket) > 0);
    if (ready) {
      unsigned words[VYRE_SLOT_WORDS];
      vyre_read_slots(a, lane, ready, slot, words);
      vyre_finish(a, lane, ready, level, slot, words, -1);
      remaining &= ~ready;
      sleep_ns = 0;
    } else {
      if (vyre_load_gpu(&s->abort)) __trap();
      // Every lane leaves or none: a lane gone ahead would pair the others' next __ballot_sync
      // with a warp-wide operation elsewhere (vyre_warp_view).
      if (__shfl_sync(0xFFFFFFFFu, vyre_load_gpu(&s->shutdown), 0)) return true;  // tickets that were never published
      sleep_ns = sleep_ns == 0 ? 32 : (sleep_ns * 2 > a.worker_idle_ns ? a.worker_idle_ns : sleep_ns * 2);
      __nanosleep(sleep_ns);
    }
  }
  return true;
}

// Where a lane reads the express copy of one level's next ticket (lines lane % 8), and the stamp
// that copy carries when it holds that ticket (ExpressLayout); `line` is null for no level.
struct VyreExpressTarget {
  const uint4* line;
  unsigned long long ticket;
  unsigned stamp;
};

// Points `t` at `level`'s ticket `ticket`. The next ticket (the case after every express task)
// costs an add; any other jump costs two 64-bit divisions, a quarter of a microsecond.
__device__ __forceinline__ void vyre_express_aim(const VyreKernelArgs& a, const unsigned* offsets, unsigned level,
                                                 unsigned long long ticket, unsigned lane, VyreExpressTarget& t) {
  if (level >= VYRE_PRIORITY_LEVELS || offsets[level + 1] == offsets[level]) {
    t.line = nullptr;
    return;
  }
  if (t.line != nullptr && ticket == t.ticket) return;
  const uint4* first = a.express + (unsigned long long)offsets[level] * VYRE_EXPRESS_LINES + (lane % VYRE_EXPRESS_LINES);
  if (t.line != nullptr && ticket == t.ticket + 1ull) {
    t.stamp = t.stamp == 0xFFFFFFFFu ? 1u : t.stamp + 1u;
    t.line += VYRE_EXPRESS_LINES;
    if (t.line >= first + (unsigned long long)(offsets[level + 1] - offsets[level]) * VYRE_EXPRESS_LINES) t.line = first;
  } else {
    t.stamp = (unsigned)(ticket % 0xFFFFFFFFull) + 1u;
    t.line = first + (ticket % (offsets[level + 1] - offsets[level])) * VYRE_EXPRESS_LINES;
  }
  t.ticket = ticket;
}

// Whether `tenant` (the same in every lane) may run (0 or 1), from the scout's poll: lanes 0..7
// hold control words 0..31 in `head`, the tenant base (word 2) and the mask word when it lies
// there, as it does unless the table was moved. So the mask is as fresh as the task, and the
// device mirror (which a task seen before its doorbell can outrun) is not read.
__device__ int vyre_poll_authorized(const VyreKernelArgs& a, const uint4& head, unsigned tenant) {
  unsigned base = __shfl_sync(0xFFFFFFFFu, head.z, 0);
  unsigned long long word = (unsigned long long)base + (tenant < VYRE_MAX_TENANTS ? tenant : 0u);
  unsigned polled = word < 32u ? (unsigned)word : 0u;
  unsigned component = polled & 3u;
  unsigned mine = component == 0u ? head.x : component == 1u ? head.y : component == 2u ? head.z : head.w;
  unsigned mask = __shfl_sync(0xFFFFFFFFu, mine, polled >> 2);
  if (tenant >= VYRE_MAX_TENANTS) return 0;
  if (word < 32u) return mask != 0u;
  return word < a.control_words && vyre_read(a, (unsigned)word) != 0u;
}

// Runs `level`'s ticket `ticket` from its express copy, which lanes `first`..`first + 7` hold in
// `line` (slot words 2i and 2i + 1 in .x and .z of lane first + i), if this warp wins the claim;
// false if another warp took the ticket first. Either way `claimed` (every lane) becomes the level's
// claim cursor as the claim found it.
__device__ __forceinline__ bool vyre_run_express(const VyreKernelArgs& a, unsigned lane, unsigned level, unsigned long long ticket,
                                                 unsigned slot, unsigned first, uint4 line, const uint4& head,
                                                 unsigned long long* claimed) {
  // The claim's answer is needed only before the task runs: gather the words while it travels.
  unsigned long long previous = 0;
  if (lane == 0) previous = atomicCAS(&a.state->claim[level], ticket, ticket + 1ull);
  unsigned words[VYRE_SLOT_WORDS];
#pragma unroll
  for (unsigned i = 0; i < VYRE_EXPRESS_LINES; i++) {
    words[2 * i] = __shfl_sync(0xFFFFFFFFu, line.x, first + i);
    words[2 * i + 1] = __shfl_sync(0xFFFFFFFFu, line.z, first + i);
  }
  int authorized = vyre_poll_authorized(a, head, words[2]);
  previous = __shfl_sync(0xFFFFFFFFu, previous, 0);
  if (previous != ticket) {
    *claimed = previous;
    return false;
  }
  *claimed = ticket + 1ull;
  vyre_finish(a, lane, 1u, (int)level, slot, words, authorized);
  return true;
}

// Mirrors one poll's tenant table (control words 2..31, in `head` of lanes 0..7) where it changed
// since `table_seen`, then the doorbells (`bell`, lanes 0..4). The table is fenced before the
// doorbells only when it changed: a fence waits for every memory access in flight, the last
// task's status store and the next poll's reads included.
__device__ void vyre_mirror_doorbells(VyreDeviceState* s, unsigned lane, const uint4& head, unsigned bell, uint4& table_seen) {
  bool table_changed = false;
  if (lane < 8u) {
    unsigned words[4] = {head.x, head.y, head.z, head.w};
    unsigned seen[4] = {table_seen.x, table_seen.y, table_seen.z, table_seen.w};
    for (unsigned k = 0; k < 4; k++) {
      unsigned w = 4u * lane + k;
      if (w < VYRE_CTL_TENANT_BASE || words[k] == seen[k]) continue;
      if (w == VYRE_CTL_TENANT_BASE) s->tenant_base = words[k];
      else s->tenant_mask[w - VYRE_CTL_TENANT_TABLE_START] = words[k];
      table_changed = true;
    }
    table_seen = head;
  }
  if (__any_sync(0xFFFFFFFFu, table_changed)) __threadfence();
  __syncwarp();
  if (lane < VYRE_PRIORITY_LEVELS) atomicExch(&s->doorbell[lane], bell);
}

// One poll of the scout, in flight or landed: a single PCIe round trip. One 16-byte load per lane
// covers the doorbells and control words 0..31 (`head`: lanes 0..7 read words 0..31, SHUTDOWN and
// the tenant table; lanes 8 and 9 the quads that hold the doorbells, words 140..147; the other
// lanes repeat lanes 0..7, the same lines, coalesced), and while work is arriving two more loads,
// issued with it, read the express copies of each level's next ticket. The device words are loaded
// with them (their latency hides under the PCIe read).
struct VyrePoll {
  uint4 head;
  uint4 line[2];               // group 0: levels 0..3 (eight lanes each), group 1: level 4 (lanes 0..7)
  VyreExpressTarget target[2]; // what `line` was aimed at
  unsigned long long claims;   // lanes 0..4: the level's claim cursor when issued
  unsigned aborted, shutdown;
#ifdef VYRE_TRACE
  unsigned long long t_issue;
#endif
};

// What the scout carries from one poll to the next.
struct VyreScout {
  // Lanes 0..4, one level each: the next ticket as far as the scout knows, the cursor last
  // mirrored to the host, and the doorbell of the last poll.
  unsigned long long cursor, mirrored_claims;
  unsigned last_doorbell;
  VyreExpressTarget aim[2];  // where the next poll reads the express copies
  uint4 table_seen;          // lanes 0..7: the tenant words last mirrored (the state starts zeroed)
  bool mirror_pending;       // a poll's doorbells are not mirrored yet: nobody but the scout needed them
  uint4 mirror_head;         // lanes 0..7: that poll's control words 0..31
  unsigned long long last_activity;
  unsigned sleep_ns;         // 0: hot (polling without sleep)
  bool synced;
#ifdef VYRE_TRACE
  unsigned long long last_poll, last_issue;
#endif
};

// Sends poll `p`: aims the express reads (`aim`, kept from poll to poll) at each level's next
// ticket (`cursor`, lanes 0..4), then issues every load; express copies are read only while `hot`.
// Nothing here waits for the loads; the caller does, at its first use of the data.
__device__ __forceinline__ void vyre_poll_issue(const VyreKernelArgs& a, const unsigned* offsets, unsigned lane, unsigned long long cursor,
                                                VyreExpressTarget (&aim)[2], bool hot, VyrePoll& p) {
  VyreDeviceState* s = a.state;
#pragma unroll
  for (unsigned g = 0; g < 2u; g++) {
    unsigned level = g == 0u ? lane / VYRE_EXPRESS_LINES : (lane < VYRE_EXPRESS_LINES ? 4u : VYRE_PRIORITY_LEVELS);
    unsigned long long next = __shfl_sync(0xFFFFFFFFu, cursor, level < VYRE_PRIORITY_LEVELS ? level : 0u);
    vyre_express_aim(a, offsets, level, next, lane, aim[g]);
    p.target[g] = aim[g];
  }
#ifdef VYRE_TRACE
  p.t_issue = vyre_globaltimer();
#endif
  p.aborted = vyre_load_gpu(&s->abort);
  p.shutdown = vyre_load_gpu(&s->shutdown);
  p.claims = lane < VYRE_PRIORITY_LEVELS ? *(volatile unsigned long long*)&s->claim[lane] : 0ull;
  const unsigned bell_quad = VYRE_CTL_PUBLISH_SEQ_BASE / 4u;
  unsigned quad = lane == 8u ? bell_quad : lane == 9u ? bell_quad + 1u : (lane & 7u);
  p.head = __ldcv(reinterpret_cast<const uint4*>(a.control) + quad);
#pragma unroll
  for (unsigned g = 0; g < 2u; g++) {
    p.line[g] = hot && p.target[g].line != nullptr ? __ldcv(p.target[g].line) : make_uint4(0u, 0u, 0u, 0u);
  }
}

// This lane's level's doorbell (lanes 0..4) in poll `p`: word PUBLISH_SEQ_BASE + lane, component
// (word % 4) of lane 8 or 9.
__device__ __forceinline__ unsigned vyre_poll_doorbell(const VyrePoll& p, unsigned lane) {
  const unsigned bell_quad = VYRE_CTL_PUBLISH_SEQ_BASE / 4u;
  unsigned word = VYRE_CTL_PUBLISH_SEQ_BASE + (lane < VYRE_PRIORITY_LEVELS ? lane : 0u);
  unsigned source = 8u + (word / 4u - bell_quad);
  unsigned x = __shfl_sync(0xFFFFFFFFu, p.head.x, source), y = __shfl_sync(0xFFFFFFFFu, p.head.y, source);
  unsigned z = __shfl_sync(0xFFFFFFFFu, p.head.z, source), w = __shfl_sync(0xFFFFFFFFu, p.head.w, source);
  unsigned component = word & 3u;
  return component == 0u ? x : component == 1u ? y : component == 2u ? z : w;
}

// Runs the express copy that poll `p` found stamped for the next ticket (`known`, lanes 0..4) of
// the highest level that has one, unless a level above it waits (`bell`: this poll's doorbells).
// Only a poll aimed at that ticket counts: another warp may have run it since this one was sent.
// Returns whether this warp ran it; moves `known` to where the claim found the cursor.
__device__ __forceinline__ bool vyre_poll_express(const VyreKernelArgs& a, unsigned lane, const VyrePoll& p, unsigned bell,
                                                  unsigned long long& known) {
  // Levels whose copy carries its stamp in all 16 units (8 lanes x 2).
  unsigned stamped[2];
#pragma unroll
  for (unsigned g = 0; g < 2u; g++) {
    unsigned level = g == 0u ? lane / VYRE_EXPRESS_LINES : 4u;
    unsigned long long next = __shfl_sync(0xFFFFFFFFu, known, level);
    const VyreExpressTarget& t = p.target[g];
    stamped[g] = __ballot_sync(0xFFFFFFFFu, t.line != nullptr && t.ticket == next && p.line[g].y == t.stamp && p.line[g].w == t.stamp);
  }
  int express_level = -1;
  for (unsigned level = 0; level < VYRE_PRIORITY_LEVELS && express_level < 0; level++) {
    unsigned bits = level < 4u ? (stamped[0] >> (VYRE_EXPRESS_LINES * level)) & 0xFFu : stamped[1] & 0xFFu;
    if (bits == 0xFFu) express_level = (int)level;
  }
  if (express_level < 0) return false;
  unsigned level = (unsigned)express_level;
  if (__any_sync(0xFFFFFFFFu, lane < level && (int)(bell - (unsigned)known) > 0)) return false;
  // Selected, not indexed: an array indexed at run time lives in local memory, and storing the
  // reads there made the warp wait for them right after issuing them (cuobjdump -sass).
  bool low = level < 4u;
  unsigned first = low ? VYRE_EXPRESS_LINES * level : 0u;
  unsigned long long ticket = __shfl_sync(0xFFFFFFFFu, low ? p.target[0].ticket : p.target[1].ticket, first);
  const uint4* copy = low ? p.target[0].line : p.target[1].line;
  unsigned slot = __shfl_sync(0xFFFFFFFFu, (unsigned)((copy - a.express) / VYRE_EXPRESS_LINES), first);
  unsigned long long claimed = 0;
  bool ran = vyre_run_express(a, lane, level, ticket, slot, first, low ? p.line[0] : p.line[1], p.head, &claimed);
#ifdef VYRE_TRACE
  if (ran && lane == 0) atomicAdd(&a.state->trace_count[2], 1ull);
#endif
  if (lane == level && claimed > known) known = claimed;
  return ran;
}

// Acts on poll `p`: the scout's work between two polls. Returns true at SHUTDOWN. First what an
// earlier poll left to do, while `p` (and the other poll) travel; then the doorbells; then a
// stamped express copy of the next ticket, run at once without waiting for its doorbell or reading
// its slot; then, when more waits, the mirrors, a wake-up for the workers and a batch of its own;
// when nothing has arrived for scout_hot_ns, the control mirror's re-sync and the idle backoff.
__device__ __forceinline__ bool vyre_scout_consume(const VyreKernelArgs& a, const unsigned* offsets, unsigned lane, VyreScout& sc, VyrePoll& p) {
  VyreDeviceState* s = a.state;
  if (sc.mirror_pending) {
    vyre_mirror_doorbells(s, lane, sc.mirror_head, sc.last_doorbell, sc.table_seen);
    sc.mirror_pending = false;
  }
  if (lane < VYRE_PRIORITY_LEVELS && sc.cursor != sc.mirrored_claims) {
    sc.mirrored_claims = sc.cursor;
    *(volatile unsigned long long*)(a.control + VYRE_CTL_CLAIM_SEQ_BASE + 2 * lane) = sc.cursor;
  }
  // What is known claimed: the cursor as this poll read it, or as the scout moved it since.
  unsigned long long known = lane < VYRE_PRIORITY_LEVELS && p.claims > sc.cursor ? p.claims : sc.cursor;
  unsigned bell = vyre_poll_doorbell(p, lane);
  bool changed = false;
  if (lane < VYRE_PRIORITY_LEVELS) {  // polls land in the order they were sent: a doorbell never goes back
    changed = bell != sc.last_doorbell;
    sc.last_doorbell = bell;
  }
  if (p.aborted) __trap();
  if (__shfl_sync(0xFFFFFFFFu, p.head.x, 0) | __shfl_sync(0xFFFFFFFFu, p.shutdown, 0)) {
    if (lane == 0) atomicExch(&s->shutdown, 1u);
    return true;
  }
  bool any = __any_sync(0xFFFFFFFFu, changed);
#ifdef VYRE_TRACE
  unsigned long long now = __shfl_sync(0xFFFFFFFFu, vyre_globaltimer(), 0);
  if (lane == 0) {
    *(volatile unsigned long long*)&s->trace_seen = now;
    if (now - sc.last_poll < 100000ull) {  // hot polls only
      atomicAdd(&s->trace_sum[4], now - sc.last_poll);
      atomicAdd(&s->trace_sum[5], now - p.t_issue);
      unsigned long long stored = *(volatile unsigned long long*)&s->trace_stored;
      if (stored > sc.last_issue && stored < p.t_issue) atomicAdd(&s->trace_sum[6], p.t_issue - stored);
      atomicAdd(&s->trace_count[1], 1ull);
    }
    sc.last_poll = now;
    sc.last_issue = p.t_issue;
  }
#endif
  // The express copy first (one task, no doorbell needed), and before the doorbell reaches the
  // workers' mirror: a worker polling it would claim the ticket first and read the slot again.
  bool ran_express = vyre_poll_express(a, lane, p, sc.last_doorbell, known);
#ifndef VYRE_TRACE
  unsigned long long now = __shfl_sync(0xFFFFFFFFu, vyre_globaltimer(), 0);  // after the express task: not in its round trip
#endif
  // A level needs the slow path (workers, a batch read from the ring) when more than one ticket
  // waits, or one that this poll was aimed at without finding its express copy. One ticket that
  // this poll was not aimed at (the helper took the one it was) is left to the next poll, which is.
  bool waiting = false;
  {
    unsigned level = lane < VYRE_PRIORITY_LEVELS ? lane : 0u;
    unsigned long long aimed = __shfl_sync(0xFFFFFFFFu, level < 4u ? p.target[0].ticket : p.target[1].ticket,
                                           level < 4u ? VYRE_EXPRESS_LINES * level : 0u);
    int backlog = (int)(sc.last_doorbell - (unsigned)known);
    waiting = __any_sync(0xFFFFFFFFu, lane < VYRE_PRIORITY_LEVELS && (backlog > 1 || (backlog == 1 && (aimed == known || sc.sleep_ns != 0u))));
  }
  if (any && waiting) {
    // More than the express task arrived: the workers need the doorbells now, and a wake-up
    // (after the doorbell mirrors).
    vyre_mirror_doorbells(s, lane, p.head, sc.last_doorbell, sc.table_seen);
    __syncwarp();
    if (lane == 0) {
      __threadfence();
      atomicAdd(&s->wake, 1u);
    }
  } else if (any) {
    // Nothing for the workers yet: mirror after the next poll is sent.
    sc.mirror_pending = true;
    sc.mirror_head = p.head;
  }
  if (any || ran_express) {
    sc.last_activity = now;
    sc.sleep_ns = 0;
    sc.synced = false;
  }
  if (waiting) {
    // The doorbells are mirrored: a poll that found work waiting mirrored its own above, and one
    // left pending by an earlier poll was mirrored first thing.
    vyre_run_batch(a, lane, offsets, true);
    // Where the cursors are now (workers and this batch moved them): the next express reads.
    known = lane < VYRE_PRIORITY_LEVELS ? *(volatile unsigned long long*)&s->claim[lane] : 0ull;
  } else if (!any && !ran_express && now - sc.last_activity > a.scout_hot_ns) {
    if (!sc.synced && !sc.mirror_pending) {
      vyre_resync(a, lane, 32u);
      sc.synced = true;
    }
    if (lane == 0 && sc.sleep_ns >= a.scout_idle_ns) {
      vyre_write(a, VYRE_CTL_HEARTBEAT, vyre_load_gpu(a.dcontrol + VYRE_CTL_HEARTBEAT) + 1u);
    }
    // Deep idle: after 1,000 idle polls' worth of quiet, poll 20x less often (at most every
    // 1 ms, __nanosleep's limit): the first task after a long quiet spell waits that long.
    unsigned long long cap = now - sc.last_activity > 1000ull * a.scout_idle_ns ? 20ull * a.scout_idle_ns : a.scout_idle_ns;
    if (cap > 1000000ull) cap = 1000000ull;
    sc.sleep_ns = sc.sleep_ns == 0 ? 256 : (sc.sleep_ns * 2ull > cap ? (unsigned)cap : sc.sleep_ns * 2);
    __nanosleep(sc.sleep_ns);
  }
  if (lane < VYRE_PRIORITY_LEVELS) sc.cursor = known;
  return false;
}

// The scout: mirrors the host-written doorbells, SHUTDOWN and tenant table into device memory
// and the claim cursors back into the control block, and runs express tasks itself (see
// vyre_scout_consume). It polls without sleeping for scout_hot_ns after the last work it saw
// (round-trip latency), then backs off to scout_idle_ns, and after 1,000 of those to 20x that (at
// most 1 ms), so an idle kernel makes one small PCIe read (and one heartbeat write) per poll.
// One poll at a time: a warp's later memory accesses (the express claim, the status store) wait
// behind its reads in flight, so a second poll of its own made every task slower (scripts/kernel-lab).
__device__ void vyre_scout(const VyreKernelArgs& a, unsigned lane, const unsigned* offsets) {
  VyreDeviceState* s = a.state;
  VyreScout sc;
  sc.cursor = sc.mirrored_claims = 0ull;
  sc.last_doorbell = 0u;
  sc.aim[0] = sc.aim[1] = VyreExpressTarget{nullptr, 0ull, 0u};
  sc.table_seen = sc.mirror_head = make_uint4(0u, 0u, 0u, 0u);
  sc.mirror_pending = false;
  sc.last_activity = vyre_globaltimer();
  sc.sleep_ns = 0u;
  sc.synced = true;
#ifdef VYRE_TRACE
  sc.last_poll = sc.last_issue = sc.last_activity;
#endif
  bool hot = false;  // as last told to the express helper
  VyrePoll poll;
  while (true) {
    if ((sc.sleep_ns == 0u) != hot) {
      hot = sc.sleep_ns == 0u;
      if (lane == 0) atomicExch(&s->hot, hot ? 1u : 0u);
    }
    vyre_poll_issue(a, offsets, lane, sc.cursor, sc.aim, hot, poll);
    if (vyre_scout_consume(a, offsets, lane, sc, poll)) return;
  }
}

// An express helper (the first warp of blocks 1..VYRE_EXPRESS_HELPERS): while the scout is hot, a
// poller that only runs express copies. The pollers' reads go out on their own schedules, so host
// memory is read several times per PCIe round trip and a task waits less for a poll that sees it,
// whenever the host publishes it: with the scout alone, a host that republished 0.4 us later than a C++ one (the
// JVM) waited a whole extra round trip (scripts/kernel-lab, host_delay_ns). The claim CAS decides
// which of the two runs a task; the loser learns the cursor from it. It lives in another SM so
// that its reads in flight never delay the scout's accesses.
__device__ void vyre_express_helper(const VyreKernelArgs& a, unsigned lane, const unsigned* offsets) {
  VyreDeviceState* s = a.state;
  unsigned long long cursor = 0ull;  // lanes 0..4: the level's next ticket as far as this warp knows
  VyreExpressTarget aim[2] = {VyreExpressTarget{nullptr, 0ull, 0u}, VyreExpressTarget{nullptr, 0ull, 0u}};
  VyrePoll poll;
  unsigned idle_ns = 0;
  while (true) {
    uint4 line = vyre_warp_view(reinterpret_cast<const uint4*>(&s->wake));  // wake, abort, shutdown, hot
    if (line.y) __trap();
    if (line.z) return;
    if (!line.w) {
      idle_ns = idle_ns == 0 ? 256 : (idle_ns * 2 > a.worker_idle_ns ? a.worker_idle_ns : idle_ns * 2);
      __nanosleep(idle_ns);
      continue;
    }
    idle_ns = 0;
    // Aimed at the claim cursors as they are now (an L2 read, about 0.2 us), not where this warp's
    // last poll left them: the scout has usually taken that ticket since.
    unsigned long long claims = lane < VYRE_PRIORITY_LEVELS ? *(volatile unsigned long long*)&s->claim[lane] : 0ull;
    if (lane < VYRE_PRIORITY_LEVELS && claims > cursor) cursor = claims;
    vyre_poll_issue(a, offsets, lane, cursor, aim, true, poll);
    if (__shfl_sync(0xFFFFFFFFu, poll.head.x, 0)) return;  // SHUTDOWN
    unsigned long long known = lane < VYRE_PRIORITY_LEVELS && poll.claims > cursor ? poll.claims : cursor;
    vyre_poll_express(a, lane, poll, vyre_poll_doorbell(poll, lane), known);
    if (lane < VYRE_PRIORITY_LEVELS) cursor = known;
  }
}

// The grid is one block of 256 threads per SM (CudaSession), so the compiler may give each
// thread up to 255 registers: with the default cap of 128 it spilled the scout's polls
// to local memory, and a spill store waits for the PCIe read it stores.
extern "C" __global__ void __launch_bounds__(256, 1) vyre_megakernel(VyreKernelArgs a) {
  unsigned lane = threadIdx.x & 31u;
  bool scout = blockIdx.x == 0 && threadIdx.x < 32u;
  VyreDeviceState* s = a.state;
  if (blockIdx.x == 0 && threadIdx.x == 0) vyre_write(a, VYRE_CTL_KERNEL_STATE, VYRE_KERNEL_STATE_RUNNING);
  if (lane == 0) atomicAdd(&s->live_warps, 1u);
  unsigned offsets[VYRE_PRIORITY_LEVELS + 1];
  for (unsigned p = 0; p <= VYRE_PRIORITY_LEVELS; p++) offsets[p] = vyre_load_sys(a.control + VYRE_CTL_PRIORITY_OFFSETS_BASE + p);

  if (scout) {
    vyre_scout(a, lane, offsets);
  } else if (blockIdx.x >= 1u && blockIdx.x <= VYRE_EXPRESS_HELPERS && threadIdx.x < 32u) {
    vyre_express_helper(a, lane, offsets);
  } else {
    // An idle worker polls the wake line only (wake, abort, shutdown in one load, then the queued
    // continuations) and tries to claim when the scout bumped `wake`, or while its last batch found
    // work. A wake it misses costs parallelism, never a task: the scout runs batches itself while
    // work waits.
    unsigned sleep_ns = 0, seen_wake = 0;
    bool busy = true;
    while (true) {
      uint4 line = vyre_warp_view(reinterpret_cast<const uint4*>(&s->wake));
      if (line.y) __trap();  // abort: the host's last resort after a stall
      if (line.z) break;     // shutdown
      if (busy || line.x != seen_wake) {
        seen_wake = line.x;
        busy = vyre_run_batch(a, lane, offsets, false);
        if (busy) {
          sleep_ns = 0;
          continue;
        }
      }
      // Continuations wait for idle workers (the count shares the wake line, so this load hits it);
      // lane 0's count decides for the warp, as vyre_warp_view's line does.
      if (__shfl_sync(0xFFFFFFFFu, vyre_load_gpu(&s->continuations), 0) != 0u && vyre_run_continuation(a, lane)) {
        sleep_ns = 0;
        continue;
      }
      sleep_ns = sleep_ns == 0 ? 32 : (sleep_ns * 2 > a.worker_idle_ns ? a.worker_idle_ns : sleep_ns * 2);
      __nanosleep(sleep_ns);
    }
  }
  __syncwarp();
  unsigned last = 0;
  if (lane == 0) last = atomicSub(&s->live_warps, 1u) == 1u;
  last = __shfl_sync(0xFFFFFFFFu, last, 0);
  // A warp stuck in a handler keeps live_warps above zero: the others linger, polling the abort
  // flag, so the host can still trap the whole grid instead of leaving it running forever.
  while (!last && vyre_load_gpu(&s->live_warps) != 0u) {
    if (vyre_load_gpu(&s->abort)) __trap();
    __nanosleep(10000);
  }
  if (last) {
    // The last warp out leaves an exact mirror behind, then says the kernel has exited.
    __threadfence();
    vyre_resync(a, lane, 32u);
    if (lane == 0) atomicExch(a.dcontrol + VYRE_CTL_KERNEL_STATE, VYRE_KERNEL_STATE_EXITED);
    __threadfence_system();
    if (lane == 0) vyre_store_sys(a.control + VYRE_CTL_KERNEL_STATE, VYRE_KERNEL_STATE_EXITED);
  }
}

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

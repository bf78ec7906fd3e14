// ---- DFA_STEP (opcode 6): mirrors dev.vyre.runtime.dfa.DfaStep; see DfaStepArgs for the args ----
// The table is read with ordinary loads, not __ldg: a buffer that held one table may hold another
// later in the persistent kernel's life (vyre serve reuses its buffers), and the read-only data
// cache is not kept coherent with such writes. The acquire at the step's start (vyre_acquire_host_writes)
// makes the loads see the host's new table.
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
  const unsigned char* bytes;       // the range's byte 0
  unsigned* hits;                   // a hit buffer, or in count mode a MatchCountLayout resource
  unsigned input_id;
  unsigned long long base;          // absolute offset of byte 0
  bool counting;
  unsigned long long found;         // count mode: hits so far, added to the counter once at the end
};

// Where a scan is in the table, and one byte's step: the table's premultiplied u32 rows in global memory,
// read through L1 (each byte costs a warp 32 scattered loads there, twice: class, then transition).
struct VyreDfaRows {
  const unsigned* t;
  unsigned classes;
  unsigned row;
  __device__ __forceinline__ bool step(unsigned b) {
    unsigned tr = vyre_table_word(t + VYRE_DFA_TRANSITION_BASE + row + vyre_table_word(t + VYRE_DFA_CLASS_MAP_BASE + b));
    row = tr & VYRE_DFA_ROW_MASK;
    return (tr & VYRE_DFA_ACCEPT_FLAG) != 0u;
  }
  __device__ __forceinline__ unsigned state() const { return row / classes; }
  __device__ __forceinline__ unsigned accepts() const {
    unsigned offsets_base = vyre_table_word(t + 9), s = state();
    return vyre_table_word(t + offsets_base + s + 1) - vyre_table_word(t + offsets_base + s);
  }
};

// The same over the block's copy of a promoted table in shared memory (PromotedDfaLayout): u8 classes, u16 next
// states, u16 accept counts.
struct VyreDfaCopy {
  const unsigned char* class_map;
  const unsigned short* transitions;
  const unsigned short* accept_counts;
  unsigned classes;
  unsigned current;
  __device__ __forceinline__ bool step(unsigned b) {
    unsigned tr = transitions[current * classes + class_map[b]];
    current = tr & VYRE_PROMOTED_DFA_STATE_MASK;
    return (tr & VYRE_PROMOTED_DFA_ACCEPT_FLAG) != 0u;
  }
  __device__ __forceinline__ unsigned state() const { return current; }
  __device__ __forceinline__ unsigned accepts() const { return accept_counts[current]; }
};

// The cursor's state accepts at relative end `end` (exclusive): append its patterns' records, or count them.
template <bool Counting, typename Cursor>
__device__ __forceinline__ void vyre_dfa_accept(VyreDfaScan& s, const Cursor& c, unsigned long long end) {
  if (Counting) {
    s.found += c.accepts();
  } else {
    vyre_dfa_report(s.t, c.state(), s.hits, s.input_id, s.base + end);
  }
}

__device__ __forceinline__ unsigned vyre_uint4_byte(const uint4& v, unsigned k) {
  unsigned w = k < 4u ? v.x : k < 8u ? v.y : k < 12u ? v.z : v.w;
  return (w >> (8u * (k & 3u))) & 0xFFu;
}

// Scans relative bytes [from, to) with cursor `c`, reporting ends (exclusive) above `min_end`. The host may
// reuse an input buffer for the next chunk: read it past L1 (L2 only, or the bus). Counting is a template
// argument: a loop that stores no records lets the compiler load the coming bytes' classes ahead of the
// state they wait on (a store through the records' pointer might alias the table), which leaves only the
// transition's load in each byte's chain.
template <bool Counting, typename Cursor>
__device__ void vyre_dfa_scan_range(VyreDfaScan& s, Cursor& c, unsigned long long from, unsigned long long to,
                                    unsigned long long min_end) {
  unsigned long long i = from;
  for (; i < to && ((reinterpret_cast<unsigned long long>(s.bytes + i)) & 15ull); i++) {
    if (c.step(__ldcg(s.bytes + i)) && i + 1 > min_end) vyre_dfa_accept<Counting>(s, c, i + 1);
  }
  // 16-byte loads, the next one in flight while this one is consumed: mapped input crosses PCIe.
  uint4 next = i + 16 <= to ? __ldcg(reinterpret_cast<const uint4*>(s.bytes + i)) : make_uint4(0, 0, 0, 0);
  for (; i + 16 <= to; i += 16) {
    uint4 now = next;
    if (i + 32 <= to) next = __ldcg(reinterpret_cast<const uint4*>(s.bytes + i + 16));
#pragma unroll
    for (unsigned k = 0; k < 16; k++) {
      if (c.step(vyre_uint4_byte(now, k)) && i + k + 1 > min_end) vyre_dfa_accept<Counting>(s, c, i + k + 1);
    }
  }
  for (; i < to; i++) {
    if (c.step(__ldcg(s.bytes + i)) && i + 1 > min_end) vyre_dfa_accept<Counting>(s, c, i + 1);
  }
}

// vyre_dfa_scan_range in the scan's mode.
template <typename Cursor>
__device__ __forceinline__ void vyre_dfa_scan(VyreDfaScan& s, Cursor& c, unsigned long long len, unsigned long long min_end) {
  if (s.counting) {
    vyre_dfa_scan_range<true>(s, c, 0, len, min_end);
  } else {
    vyre_dfa_scan_range<false>(s, c, 0, len, min_end);
  }
}

// ---- A promoted DFA table (docs/POLICY.md, "Promotion") ----
// The host may promote one DFA table: it writes the table's compact form (PromotedDfaLayout) to device memory
// and names it in the device state's promotion record. Each block keeps a copy in its dynamic shared memory,
// filled by the lanes that first need it; a DFA_STEP on that table then reads shared memory per byte. Anything
// out of step (the record being rewritten, the block's copy stale, no shared memory at launch, a copy that does
// not fit) sends the task down the ordinary path: the copy only ever speeds a task up.
struct VyrePromotedCopy {    // the head of the block's dynamic shared memory (PromotedCopyLayout); the copy follows
  unsigned sequence;         // the promotion record's sequence the copy holds or is being filled from
  unsigned status;           // VYRE_COPY_EMPTY, VYRE_COPY_CLAIMED, VYRE_COPY_FILLING or VYRE_COPY_READY
  unsigned readers;          // lanes scanning with the copy now
  unsigned done;             // FILLING: the parts copied
  // FILLING: the fill's sequence (high word), the copy's 16-byte units (bits 16-31) and the parts lanes took
  // to copy (bits 0-15), in one word, so that a lane that takes a part knows whose fill and how large at once.
  unsigned long long taken;
  unsigned pad[2];
};
#define VYRE_COPY_EMPTY 0u
#define VYRE_COPY_CLAIMED 1u   // a lane sets up a fill
#define VYRE_COPY_FILLING 2u   // lanes copy its parts
#define VYRE_COPY_READY 3u
#define VYRE_COPY_PART_UNITS 32u
// A lane waits at most this long for a fill other lanes finish, rather than scan its task the ordinary way.
#define VYRE_COPY_WAIT_NS 100000ull

extern __shared__ __align__(16) unsigned char vyre_shared[];

__device__ __forceinline__ unsigned vyre_dynamic_shared_bytes() {
  unsigned n;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(n));
  return n;
}

// At the kernel's start, every thread of the block present: no copy yet.
__device__ __forceinline__ void vyre_promoted_copy_init() {
  if (threadIdx.x == 0 && vyre_dynamic_shared_bytes() >= VYRE_PROMOTED_COPY_HEADER_BYTES) {
    *reinterpret_cast<VyrePromotedCopy*>(vyre_shared) = VyrePromotedCopy{};
  }
  __syncthreads();
}

// The promotion record, read consistently: the compact table when `handle` is promoted now, with the record's
// sequence; null when it is not, or the host is rewriting the record (odd sequence, or it changed under us).
__device__ const uint4* vyre_promotion(const VyreKernelArgs& a, unsigned handle, unsigned* sequence) {
  VyreDeviceState* s = a.state;
  unsigned before = vyre_load_gpu(&s->promoted_sequence);
  if ((before & 1u) || vyre_load_gpu(&s->promoted_handle) != handle + 1u) return nullptr;
  unsigned long long table = *(volatile unsigned long long*)&s->promoted_table;
  __threadfence();
  if (vyre_load_gpu(&s->promoted_sequence) != before) return nullptr;
  *sequence = before;
  return reinterpret_cast<const uint4*>(table);
}

// Claims the block's copy for a fill from `table` when no lane scans with it and none fills it; a lane that
// reads it and the claimer each change their own word, fence, then read the other's (block-scope fences are
// sequentially consistent), so a fill never overwrites a copy a lane is scanning with.
__device__ void vyre_promoted_claim(const VyreKernelArgs& a, VyrePromotedCopy* c, const uint4* table, unsigned sequence) {
  unsigned status = *(volatile unsigned*)&c->status;
  // A copy that became ready for this sequence since the caller looked needs no fill, and a task that read
  // the record before the host rewrote it must not fill the copy with the table it no longer names.
  if ((status != VYRE_COPY_EMPTY && status != VYRE_COPY_READY) ||
      (status == VYRE_COPY_READY && *(volatile unsigned*)&c->sequence == sequence) ||
      vyre_load_gpu(&a.state->promoted_sequence) != sequence ||
      atomicCAS(&c->status, status, VYRE_COPY_CLAIMED) != status) {
    return;
  }
  __threadfence_block();
  if (*(volatile unsigned*)&c->readers != 0u) {
    atomicExch(&c->status, status);
    return;
  }
  unsigned total = __ldcg(table + 1).y;  // word 5: total_bytes
  uint4 head = __ldcg(table);
  if (head.x != VYRE_PROMOTED_DFA_MAGIC || head.y != VYRE_PROMOTED_DFA_VERSION || (total & 15u) != 0u ||
      total > vyre_dynamic_shared_bytes() - VYRE_PROMOTED_COPY_HEADER_BYTES) {
    atomicExch(&c->status, VYRE_COPY_EMPTY);
    return;
  }
  // Atomic stores: lanes of an older fill may still read these words (and find they name another fill).
  atomicExch(&c->sequence, sequence);
  atomicExch(&c->taken, (unsigned long long)sequence << 32 | (unsigned long long)(total / 16u) << 16);
  atomicExch(&c->done, 0u);
  __threadfence_block();
  atomicExch(&c->status, VYRE_COPY_FILLING);
}

// Copies parts of the fill of `sequence` while any is left: every lane that finds the copy filling helps, so
// that a block's lanes fill it in a few microseconds (one lane alone took as long as a task). A part is taken by
// compare-and-swap on the word that names the fill, so a lane that read an older fill's status takes nothing
// from a newer one. The lane that copies the last part makes the copy ready, if the record still names it.
__device__ void vyre_promoted_fill(const VyreKernelArgs& a, VyrePromotedCopy* c, const uint4* table, unsigned sequence) {
  uint4* to = reinterpret_cast<uint4*>(vyre_shared + VYRE_PROMOTED_COPY_HEADER_BYTES);
  while (*(volatile unsigned*)&c->status == VYRE_COPY_FILLING) {
    unsigned long long taken = *(volatile unsigned long long*)&c->taken;
    unsigned units = (unsigned)(taken >> 16) & 0xFFFFu, part = (unsigned)taken & 0xFFFFu;
    unsigned parts = (units + VYRE_COPY_PART_UNITS - 1u) / VYRE_COPY_PART_UNITS;
    if ((unsigned)(taken >> 32) != sequence || part >= parts) return;
    if (atomicCAS(&c->taken, taken, taken + 1ull) != taken) continue;
    unsigned from = part * VYRE_COPY_PART_UNITS;
    unsigned end = min(units, from + VYRE_COPY_PART_UNITS);
    for (unsigned u = from; u < end; u += 4u) {  // four loads in flight
      uint4 v[4];
#pragma unroll
      for (unsigned k = 0; k < 4u; k++) if (u + k < end) v[k] = __ldcg(table + u + k);
#pragma unroll
      for (unsigned k = 0; k < 4u; k++) if (u + k < end) to[u + k] = v[k];
    }
    __threadfence_block();
    if (atomicAdd(&c->done, 1u) == parts - 1u) {
      bool current = vyre_load_gpu(&a.state->promoted_sequence) == sequence;
      __threadfence_block();
      atomicExch(&c->status, current ? VYRE_COPY_READY : VYRE_COPY_EMPTY);
      return;
    }
  }
}

// Scans the range with the block's copy of the promoted table when the task's table is the one promoted and the
// copy is ready (filling it first if need be); false when the caller must scan the ordinary way.
__device__ bool vyre_dfa_scan_promoted(const VyreKernelArgs& a, VyreDfaScan& s, unsigned handle, unsigned long long len,
                                       unsigned start_state, unsigned long long min_end) {
  if (vyre_dynamic_shared_bytes() < VYRE_PROMOTED_COPY_HEADER_BYTES + VYRE_PROMOTED_DFA_HEADER_BYTES) return false;
  unsigned sequence = 0;
  const uint4* table = vyre_promotion(a, handle, &sequence);
  if (table == nullptr) return false;
  VyrePromotedCopy* c = reinterpret_cast<VyrePromotedCopy*>(vyre_shared);
  unsigned long long waited = 0;
  while (*(volatile unsigned*)&c->status != VYRE_COPY_READY || *(volatile unsigned*)&c->sequence != sequence) {
    if (waited == 0) {
      vyre_promoted_claim(a, c, table, sequence);
      waited = vyre_globaltimer();
    } else if (vyre_globaltimer() - waited > VYRE_COPY_WAIT_NS) {
      return false;
    }
    vyre_promoted_fill(a, c, table, sequence);
    __nanosleep(128);
  }
  // Readers only count themselves against a copy that looked ready, so a claimer is never kept out by lanes
  // that merely check.
  atomicAdd(&c->readers, 1u);
  __threadfence_block();
  if (*(volatile unsigned*)&c->status != VYRE_COPY_READY || *(volatile unsigned*)&c->sequence != sequence) {
    atomicSub(&c->readers, 1u);
    return false;
  }
  const unsigned char* copy = vyre_shared + VYRE_PROMOTED_COPY_HEADER_BYTES;
  const unsigned* head = reinterpret_cast<const unsigned*>(copy);
  unsigned states = head[2], classes = head[3];
  // The copy must be of this table: the host demotes a table before its buffer holds another.
  bool same = states == vyre_table_word(s.t + 2) && classes == vyre_table_word(s.t + 3) && start_state < states;
  if (same) {
    unsigned transitions = (VYRE_PROMOTED_DFA_ACCEPT_COUNTS_OFFSET + 2u * states + 15u) & ~15u;
    VyreDfaCopy cursor = {copy + VYRE_PROMOTED_DFA_CLASS_MAP_OFFSET, reinterpret_cast<const unsigned short*>(copy + transitions),
                          reinterpret_cast<const unsigned short*>(copy + VYRE_PROMOTED_DFA_ACCEPT_COUNTS_OFFSET), classes,
                          start_state};
    vyre_dfa_scan(s, cursor, len, min_end);
    atomicAdd(&a.state->promoted_tasks, 1ull);
  }
  __threadfence_block();
  atomicSub(&c->readers, 1u);
  return same;
}

// Not inlined: vyre_dispatch is inlined where it is called, and a copy of the unrolled scan loops at each of
// those places cost registers and NVRTC time.
__device__ __noinline__ vyre_result vyre_dfa_step(const VyreKernelArgs& a, const unsigned* args) {
  vyre_acquire_host_writes();
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
  VyreDfaScan s = {t, reinterpret_cast<const unsigned char*>(input->ptr) + off, hits, args[6], base,
                   mode == VYRE_DFA_STEP_MODE_COUNT, 0ull};
  if (!vyre_dfa_scan_promoted(a, s, args[3], len, args[4], args[9])) {
    VyreDfaRows rows = {t, classes, args[4] * classes};
    vyre_dfa_scan(s, rows, len, args[9]);
  }
  if (s.found) {
    atomicAdd(reinterpret_cast<unsigned long long*>(hits + VYRE_MATCH_COUNT_HEADER_WORDS) + args[6], s.found);
  }
  return VYRE_STATUS_DONE;
}


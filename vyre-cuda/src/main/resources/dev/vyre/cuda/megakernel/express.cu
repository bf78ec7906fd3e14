// The express lane (ExpressLayout): a stamped copy of a task's slot that a poll reads in the same
// PCIe round trip that finds it, and the scout's poll that reads it (issued here, acted on in
// scout.cu).

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
  VYRE_TRACED(unsigned long long t_issue;)
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
  VYRE_TRACED(unsigned long long last_poll, last_issue;)
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
  VYRE_TRACED(p.t_issue = vyre_globaltimer();)
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
  VYRE_TRACED(if (ran && lane == 0) atomicAdd(&a.state->trace_count[VYRE_TRACE_COUNT_EXPRESS_TASKS], 1ull);)
  if (lane == level && claimed > known) known = claimed;
  return ran;
}

// The scout, the one warp that polls host memory for work, and the express helpers that poll beside
// it while it is hot.

// Adds a hot poll (`now`: when its data was in) to the device trace (lane 0). A macro, as
// VYRE_TRACE_TASK is, so that the traced kernel compiles as it did with the code in place.
#define VYRE_TRACE_POLL(s, sc, p, now)                                                                          \
  do {                                                                                                          \
    *(volatile unsigned long long*)&(s)->trace_seen = (now);                                                    \
    if ((now) - (sc).last_poll < 100000ull) { /* hot polls only */                                              \
      atomicAdd(&(s)->trace_sum[VYRE_TRACE_SUM_POLL_PERIOD], (now) - (sc).last_poll);                           \
      atomicAdd(&(s)->trace_sum[VYRE_TRACE_SUM_POLL_LATENCY], (now) - (p).t_issue);                             \
      unsigned long long stored = *(volatile unsigned long long*)&(s)->trace_stored;                            \
      if (stored > (sc).last_issue && stored < (p).t_issue)                                                     \
        atomicAdd(&(s)->trace_sum[VYRE_TRACE_SUM_STORED_TO_ISSUE], (p).t_issue - stored);                       \
      atomicAdd(&(s)->trace_count[VYRE_TRACE_COUNT_POLLS], 1ull);                                               \
    }                                                                                                           \
    (sc).last_poll = (now);                                                                                     \
    (sc).last_issue = (p).t_issue;                                                                              \
  } while (0)

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
  // Traced, `now` is when this poll's data was in (the trace's poll times); untraced, it is read
  // after the express task, below.
  unsigned long long now = __shfl_sync(0xFFFFFFFFu, vyre_globaltimer(), 0);
  if (lane == 0) VYRE_TRACE_POLL(s, sc, p, now);
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
  VYRE_TRACED(sc.last_poll = sc.last_issue = sc.last_activity;)
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

// Claims and scheduling: warps take tickets from the claim cursors, read the claimed slots from the
// ring, run them (interpreter.cu), count them and store their statuses; a slot that finished YIELD
// or REQUEUE goes to the continuation queue, where idle workers take it again.

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
// The starvation counter counts CRITICAL/HIGH tasks, as vyre's does and the reference backend's,
// not batches (docs/PROTOCOL.md, "Counters both backends keep").
__device__ __forceinline__ void vyre_count_batch(unsigned* d, int level, unsigned tasks, unsigned done, unsigned faults) {
  atomicAdd(d + VYRE_CTL_PRIORITY_FAIRNESS_BASE + level, tasks);
  if (level <= 1) atomicAdd(d + VYRE_CTL_PRIORITY_STARVATION_COUNTER, tasks);
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

// Puts a continuation in the queue's next cell; its place in the count is already taken (by
// vyre_queue_continuation, or kept by a vyre_take_continuation that will put it back).
__device__ void vyre_place_continuation(const VyreKernelArgs& a, unsigned slot, const unsigned* words) {
  VyreDeviceState* s = a.state;
  unsigned long long ticket = atomicAdd(&s->continuation_tail, 1ull);
  unsigned cell = (unsigned)(ticket % VYRE_CONTINUATION_CAPACITY);
  unsigned lap = (unsigned)(ticket / VYRE_CONTINUATION_CAPACITY);
  // The count kept this cell's last slot taken, or being taken: wait for its taker to free it.
  while (vyre_load_gpu(&s->continuation_tag[cell]) != 2u * lap) __nanosleep(32);
  s->continuation_slot[cell] = slot;
  for (unsigned w = 0; w < VYRE_SLOT_WORDS; w++) s->continuation_words[cell][w] = words[w];
  __threadfence();
  atomicExch(&s->continuation_tag[cell], 2u * lap + 1u);
  atomicAdd(&s->continuation_ready, 1u);
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
  vyre_place_continuation(a, slot, words);
  return true;
}

// Takes a queued continuation's slot, and its words into `words`; -1 when none is ready. With
// `keep_place` its place in the count stays taken, so that vyre_place_continuation can always put
// it back (or the taker gives the place up with atomicSub once the task ended).
// A taker first takes one of the placed continuations from `continuation_ready`, then the next
// cell by ticket: two atomics that always succeed. Taking the head by compare-and-swap made every
// taker retry once per other taker, and a grid of lanes waiting at wave gates, all taking, ran the
// queue at a few tasks a millisecond.
__device__ int vyre_take_continuation(const VyreKernelArgs& a, unsigned* words, bool keep_place = false) {
  VyreDeviceState* s = a.state;
  if ((int)vyre_load_gpu(&s->continuation_ready) <= 0) return -1;
  if ((int)atomicSub(&s->continuation_ready, 1u) <= 0) {
    atomicAdd(&s->continuation_ready, 1u);
    return -1;
  }
  unsigned long long head = atomicAdd(&s->continuation_head, 1ull);
  unsigned cell = (unsigned)(head % VYRE_CONTINUATION_CAPACITY);
  unsigned lap = (unsigned)(head / VYRE_CONTINUATION_CAPACITY);
  // A continuation is placed for every one taken from the ready count, but not necessarily this
  // cell's yet: its placer holds the ticket and is writing it.
  while (vyre_load_gpu(&s->continuation_tag[cell]) != 2u * lap + 1u) __nanosleep(32);
  __threadfence();
  unsigned slot = vyre_load_gpu(&s->continuation_slot[cell]);
  for (unsigned w = 0; w < VYRE_SLOT_WORDS; w++) words[w] = vyre_load_gpu(&s->continuation_words[cell][w]);
  __threadfence();
  atomicExch(&s->continuation_tag[cell], 2u * lap + 2u);
  if (!keep_place) atomicSub(&s->continuations, 1u);
  return (int)slot;
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

__device__ __noinline__ void vyre_queue_or_rerun(const VyreKernelArgs& a, unsigned slot, unsigned* words);

// A wave task that found its gate closed, on a worker warp: waits on this lane for the layer before
// to finish (an L2 poll), then runs again; true once it ended (its final status stored and counted),
// false when it must go on as a continuation (it yielded, or the kernel is shutting down). Parked
// in the continuation queue instead, a DAG's later layers filled it, and the lanes that then re-ran
// their own slots in place left nobody to run the queued tasks of the open layer: a stall
// (docs/WAVES.md, "On the device"). While it waits the lane runs queued continuations, so that a
// grid of waiting lanes still runs the yielded tasks the gate waits for. It takes each one keeping
// its place in the queue's count and puts a task that yields again back into that place: a full
// queue can never leave it in the lane's hands, where nobody else could run it (a lane that held
// such a task stopped taking from the queue, and a grid of them stalled on an H100).
__device__ __noinline__ bool vyre_wave_wait(const VyreKernelArgs& a, unsigned slot, unsigned* words) {
  VyreDeviceState* s = a.state;
  unsigned gate = words[VYRE_SLOT_PRIORITY_WORD];
  const unsigned* table = vyre_wave_table(a, gate);
  if (!table) return false;
  const volatile unsigned* before = table + (gate >> VYRE_WAVE_LAYER_SHIFT) - 1u;
  unsigned queued[VYRE_SLOT_WORDS];
  unsigned sleep_ns = 32;
  while (true) {
    unsigned count = *before;
    if (count == 0u || count == VYRE_WAVE_FAILED) break;
    if (vyre_load_gpu(&s->abort)) __trap();
    if (vyre_load_gpu(&s->shutdown)) break;
    int queued_slot = vyre_take_continuation(a, queued, true);
    if (queued_slot >= 0) {
      atomicAdd(a.dcontrol + VYRE_CTL_CONTINUATION_COUNT, 1u);
      if (!vyre_store_continuation_run(a, (unsigned)queued_slot, queued, vyre_execute_slot_again(a, (unsigned)queued_slot, queued))) {
        atomicSub(&s->continuations, 1u);
        sleep_ns = 32;
        continue;
      }
      // It waits too: back off as when the queue was empty, so that a grid of waiting lanes
      // passing waiting tasks round leaves the memory system to the tasks that run.
      vyre_place_continuation(a, (unsigned)queued_slot, queued);
    }
    __nanosleep(sleep_ns);
    sleep_ns = sleep_ns * 2u > a.worker_idle_ns ? a.worker_idle_ns : sleep_ns * 2u;
  }
  // Shutting down: the task stays YIELD/REQUEUE in the ring, as vyre_continue leaves them.
  if (vyre_load_gpu(&s->shutdown) && *before != 0u && *before != VYRE_WAVE_FAILED) return false;
  return !vyre_store_continuation_run(a, slot, words, vyre_execute_slot_again(a, slot, words));
}

// A lane's slot finished YIELD or REQUEUE (its status and arguments stored): a worker's wave task
// waits for its gate on this lane; anything else is queued for an idle worker, so that neither this
// warp (the scout's, perhaps) nor the tasks behind it wait for it.
__device__ __noinline__ void vyre_continue(const VyreKernelArgs& a, unsigned slot, unsigned* words) {
  // A wave task waiting for its gate waits on a worker's lane; the scout and the express helpers,
  // which must go on polling, queue it as any continuation.
  bool worker = threadIdx.x >= 32u || blockIdx.x > VYRE_EXPRESS_HELPERS;
  if (worker && words[VYRE_SLOT_PRIORITY_WORD] >= VYRE_WAVE_GATED_MIN && vyre_wave_wait(a, slot, words)) return;
  vyre_queue_or_rerun(a, slot, words);
}

// Counts a continuation and queues it for an idle worker. With the queue full the lane re-runs it
// in place, backing off between runs, until it ends or the queue takes it, and leaves it as it is
// once the kernel is shutting down (SHUTDOWN read from the host's word: the scout, which mirrors
// it, may be this lane).
__device__ __noinline__ void vyre_queue_or_rerun(const VyreKernelArgs& a, unsigned slot, unsigned* words) {
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

// Adds one task's stage times to the device trace (vyre_finish's timing points). A macro, not a
// function: as a function the traced kernel's atomics came out in another order.
#define VYRE_TRACE_TASK(s, t_start, t_ran, t_counted)                                                        \
  do {                                                                                                      \
    unsigned long long t_stored = vyre_globaltimer();                                                       \
    unsigned long long seen = *(volatile unsigned long long*)&(s)->trace_seen;                              \
    atomicAdd(&(s)->trace_sum[VYRE_TRACE_SUM_SEEN_TO_START], (t_start) > seen ? (t_start) - seen : 0ull);   \
    atomicAdd(&(s)->trace_sum[VYRE_TRACE_SUM_START_TO_RAN], (t_ran) - (t_start));                           \
    atomicAdd(&(s)->trace_sum[VYRE_TRACE_SUM_RAN_TO_COUNTED], (t_counted) - (t_ran));                       \
    atomicAdd(&(s)->trace_sum[VYRE_TRACE_SUM_COUNTED_TO_STORED], t_stored - (t_counted));                   \
    atomicAdd(&(s)->trace_count[VYRE_TRACE_COUNT_TASKS], 1ull);                                             \
    *(volatile unsigned long long*)&(s)->trace_stored = t_stored;                                           \
  } while (0)

// Finishes the lanes in `ready` (one claimed slot each, its words in `words`): executes, adds the
// warp's counters with fire-and-forget device atomics (the scout re-syncs the mirror) and stores
// the statuses. A batch stores them last. A single task (every express task) stores its status
// first: its release then waits for nothing but its own result, and the round trip does not wait
// for the counters (which land in device memory well before the host, having seen DONE, could
// copy them out: a snapshot is a DMA issued after that).
__device__ void vyre_finish(const VyreKernelArgs& a, unsigned lane, unsigned ready, int level, unsigned slot, unsigned* words, int known_authorized) {
  bool mine = (ready >> lane) & 1u;
  unsigned status = 0, opcode = 0xFFFFFFFFu, tenant = 0, fault = 0;
  VYRE_TRACED(unsigned long long t_start = vyre_globaltimer();)
  if (mine) status = vyre_execute_slot(a, slot, words, known_authorized, &opcode, &tenant, &fault);
  VYRE_TRACED(unsigned long long t_ran = vyre_globaltimer();)
  bool continuation = mine && vyre_is_continuation(status);
  if (continuation) vyre_store_continuation_args(a.ring + (unsigned long long)slot * VYRE_SLOT_WORDS, words);
  bool single = (ready & (ready - 1u)) == 0u;
  if (single) vyre_store_statuses(a, mine, slot, status, opcode);
  // A task is metered once, here, when it is claimed: its continuation runs are not
  // (docs/PROTOCOL.md, "Counters both backends keep").
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
  VYRE_TRACED(unsigned long long t_counted = vyre_globaltimer();)
  if (!single) vyre_store_statuses(a, mine, slot, status, opcode);
  if (continuation) vyre_continue(a, slot, words);
  VYRE_TRACED(if (mine) VYRE_TRACE_TASK(a.state, t_start, t_ran, t_counted);)
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

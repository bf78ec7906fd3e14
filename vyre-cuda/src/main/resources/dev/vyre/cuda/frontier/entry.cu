// The frontier kernel's entry points: the persistent cooperative kernel that runs a whole traversal
// with levels advancing on the device, and the one-level kernel of the per-level-launch baseline.

// Empty level ends averaged for the calibration.
#define VF_CALIBRATION_BARRIERS 32
// Most edges of the fused cost's pass: one block needs fewer than the grid for a stable time.
#define VF_FUSED_PROBE_EDGES (256ll << 10)

// Level 0's frontier: BFS the source alone, components every vertex, the hubs among them listed
// (into the hub count the host zeroed); the other two bitmaps and counters empty; the in-hubs listed.
__device__ void vf_init(const VfParams& p, long long thread, long long threads) {
  bool bfs = p.algorithm == VF_BFS;
  VfLevel first{};  // what vf_list_hub needs of the level that would have made level 0's frontier
  first.outHubs = p.queue0 + p.n;
  first.outHubCounter = vf_hub_counter(p, 0);
  for (long long v = thread; v < p.n; v += threads) {
    if (bfs) {
      p.value[v] = v == p.source ? 0 : -1;
      p.parent[v] = v == p.source ? (int)v : -1;
      if (v == p.source) vf_list_hub(first, (int)v, vf_out_degree(p, (int)v));
    } else {
      p.value[v] = (int)v;
      p.queue0[v] = (int)v;
      vf_list_hub(first, (int)v, vf_out_degree(p, (int)v));
    }
    if (__ldg(p.inRow + v + 1) - __ldg(p.inRow + v) > VF_HUB_DEGREE) {
      p.queue0[p.n + p.m / (VF_HUB_DEGREE + 1) + atomicAdd(p.state + VF_STATE_IN_HUBS, 1ull)] = (int)v;
    }
  }
  for (long long w = thread; w < p.words; w += threads) {
    unsigned first = 0u;
    long long low = w * 32;
    if (bfs) {
      first = p.source >> 5 == w ? 1u << (p.source & 31) : 0u;
    } else if (low < p.n) {
      first = p.n - low >= 32 ? VF_FULL_MASK : (1u << (p.n - low)) - 1u;
    }
    p.bitmaps[w] = first;
    p.bitmaps[p.words + w] = 0u;
    p.bitmaps[2 * p.words + w] = 0u;
  }
  if (thread == 0) {
    if (bfs) p.queue0[0] = (int)p.source;
    vf_u64* c = p.state + VF_STATE_COUNTERS;
    c[0] = bfs ? 1ull : (vf_u64)p.n;
    c[1] = bfs ? (vf_u64)(p.row[p.source + 1] - p.row[p.source]) : (vf_u64)p.m;
    for (int i = 2; i < 6; i++) c[i] = 0ull;
  }
}

// Writes level `level`'s entry of the log but its time (block 0's thread 0 only).
__device__ void vf_log(const VfParams& p, int level, long long vertices, long long edges, int topology) {
  vf_u64* entry = p.log + (level % p.logLevels) * VF_LOG_WORDS;
  entry[0] = (vf_u64)vertices;
  entry[1] = (vf_u64)edges;
  entry[2] = (vf_u64)topology;
}

__device__ __forceinline__ vf_u64* vf_log_nanos(const VfParams& p, int level) {
  return p.log + (level % p.logLevels) * VF_LOG_WORDS + 6;
}

// Block 0 alone runs levels from `level` (decided FusedWave and logged) while the decision stays
// FusedWave; the other blocks wait at the grid barrier meanwhile. Before its second level it waits
// until they have arrived, so that their share of the bitmap clear that level writes is done. Leaves
// the first level that did not run fused in the handoff word, and times its levels: from its start,
// which it leaves in the state block with the end of its last level.
__device__ void vf_fused_run(const VfParams& p, const VfPolicy& policy, int level, VfShared& sh) {
  vf_u64 clock = 0ull;
  if (threadIdx.x == 0) {
    clock = vf_now();
    p.state[VF_STATE_FUSED_START] = clock;
  }
  for (bool first = true;; first = false) {
    if (!first && threadIdx.x == 0 && gridDim.x > 1) {
      const unsigned* word = reinterpret_cast<const unsigned*>(p.state + VF_STATE_BARRIER);
      while ((vf_load_acquire(word) & 0x7FFFFFFFu) != gridDim.x - 1u) {
      }
    }
    vf_u64 edges = vf_fused_level(p, level, !first, sh.scratch);
    if (threadIdx.x == 0) {
      vf_u64* next = vf_counter(p, level + 1);
      long long total = (long long)(__ldcg(next + 1) + edges);
      next[1] = (vf_u64)total;
      vf_u64 now = vf_now();
      *vf_log_nanos(p, level) = now - clock;
      clock = now;
      long long vertices = (long long)__ldcg(next);
      // Keeps the explored edges' sum level by level (for a level handed back, the grid's decision
      // writes the same sum again); before the branch, so that its load goes with the counter's.
      vf_hybrid_pull(p, level + 1, total);
      bool fused = vertices != 0 && vf_decide_topology(policy, p.decisions, total, VF_FUSED) == VF_FUSED;
      if (fused) vf_log(p, level + 1, vertices, total, VF_FUSED);
      sh.keepGoing = fused;
      if (!fused) {
        p.state[VF_STATE_HANDOFF] = (vf_u64)(level + 1);
        p.state[VF_STATE_FUSED_END] = clock;
      }
    }
    __syncthreads();
    level++;
    if (!sh.keepGoing) return;
  }
}

extern "C" __global__ void __launch_bounds__(1024) vyre_frontier_run(VfParams p) {
  __shared__ VfShared sh;
  VF_MARK(6);
  long long thread = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long threads = gridDim.x * (long long)blockDim.x;
  // The clock is kept by the grid's last thread: warp w pushes the frontier's vertex w first, so the last warp
  // has none on the small levels whose latency matters, and no block with work waits for the clock.
  bool clockKeeper = thread == threads - 1;

  vf_init(p, thread, threads);
  vf_grid_barrier(p, sh);

  // Calibration: the mean of empty level ends; one pass over a probe of the edges reading each
  // target's state by block 0 alone while the others wait at the barrier, as in a fused phase, per
  // edge; then the same pass over a larger probe by the whole grid, less one level end, per edge.
  // The block's pass comes first: were it second, it would find the probe's edges cached by the
  // grid's and price fusing too cheap.
  vf_u64 t0 = vf_now();
  for (int i = 0; i < VF_CALIBRATION_BARRIERS; i++) vf_grid_barrier(p, sh);
  vf_u64 t1 = vf_now();
  int sink = 0;
  if (blockIdx.x == 0) {
    long long fusedProbe = min(p.m, VF_FUSED_PROBE_EDGES);
    for (long long e = threadIdx.x; e < fusedProbe; e += blockDim.x) sink ^= __ldcg(p.value + __ldg(p.col + e));
    __syncthreads();
    if (threadIdx.x == 0) {
      double pass = (double)(vf_now() - t1);
      double fusedEdge = fusedProbe > 0 ? pass / (double)fusedProbe : 0.0;
      p.state[VF_STATE_FUSED_EDGE_NANOS] = (vf_u64)__double_as_longlong(fusedEdge);
    }
  }
  vf_grid_barrier(p, sh);
  vf_u64 t2 = vf_now();
  long long probe = min(p.m, p.probeEdges);
  for (long long e = thread; e < probe; e += threads) sink ^= __ldcg(p.value + __ldg(p.col + e));
  if (sink == 0x5bd1e995) p.state[VF_STATE_SINK] = sink;  // keeps the probes' loads
  vf_grid_barrier(p, sh);
  if (clockKeeper) {
    vf_u64 t3 = vf_now();
    double barrier = (double)(t1 - t0) / VF_CALIBRATION_BARRIERS;
    double pass = (double)(t3 - t2) - barrier;
    double edge = probe > 0 && pass > 0.0 ? pass / (double)probe : 0.0;
    p.state[VF_STATE_BARRIER_NANOS] = (vf_u64)__double_as_longlong(barrier);
    p.state[VF_STATE_EDGE_NANOS] = (vf_u64)__double_as_longlong(edge);
  }
  vf_grid_barrier(p, sh);
  if (p.calibrateOnly) return;

  VfPolicy policy = vf_policy(p.n, p.m, (vf_u64)p.requiredBytes, (vf_u64)p.budgetBytes, (vf_u64)p.readbackBytes,
                              __longlong_as_double((long long)__ldcg(p.state + VF_STATE_BARRIER_NANOS)),
                              __longlong_as_double((long long)__ldcg(p.state + VF_STATE_EDGE_NANOS)),
                              __longlong_as_double((long long)__ldcg(p.state + VF_STATE_FUSED_EDGE_NANOS)),
                              (vf_u64)p.fitting, (int)p.forced);
  if (p.decisions != nullptr) {
    vf_fill_decisions(policy, p.decisions, thread, threads);
    vf_grid_barrier(p, sh);
  }
  vf_u64 clock = clockKeeper ? vf_now() : 0ull;
  vf_u64 start = clock;
  int level = 0;
  int previous = VF_NO_TOPOLOGY;
  long long clearWorker = blockIdx.x * (long long)(blockDim.x - 1) + threadIdx.x - 1;
  long long clearWorkers = gridDim.x * (long long)(blockDim.x - 1);
  for (;;) {
    VF_MARK(0);
    // Every block reads the same counter and takes the same decision (no second barrier), in its
    // thread 0 while the others clear the bitmap the next level writes.
    if (threadIdx.x == 0) {
      vf_u64* counter = vf_counter(p, level);
      long long vertices = (long long)__ldcg(counter);
      sh.inCount = vertices;
      sh.hubCount = (long long)__ldcg(vf_hub_counter(p, level));
      long long edges = (long long)__ldcg(counter + 1);
      sh.hybridPull = vf_hybrid_pull(p, level, edges);  // before the branch, so that its loads go with these
      int chosen = VF_NO_TOPOLOGY;
      if (vertices != 0) {
        chosen = vf_decide_topology(policy, p.decisions, edges, previous);
        if (blockIdx.x == 0) vf_log(p, level, vertices, edges, chosen);
      }
      sh.topology = chosen;
    } else {
      vf_clear_bits(p, vf_bits(p, level + 2), clearWorker, clearWorkers);
      if (thread == 1) vf_reset_counter(p, level);
    }
    __syncthreads();
    VF_MARK(1);
    int chosen = sh.topology;
    if (chosen == VF_NO_TOPOLOGY) break;
    if (chosen == VF_FUSED) {
      if (blockIdx.x == 0) vf_fused_run(p, policy, level, sh);
      vf_grid_barrier(p, sh);
      int resumed = (int)__ldcg(p.state + VF_STATE_HANDOFF);
      if (clockKeeper) {
        // The time before the fused run's first level and after its last is theirs.
        vf_u64 now = vf_now();
        *vf_log_nanos(p, level) += __ldcg(p.state + VF_STATE_FUSED_START) - clock;
        *vf_log_nanos(p, resumed - 1) += now - __ldcg(p.state + VF_STATE_FUSED_END);
        clock = now;
      }
      level = resumed;
      previous = VF_FUSED;
      continue;
    }
    VfLevel lv = vf_level(p, level, sh.inCount, sh.hubCount, sh.hybridPull);
    vf_u64 edges = 0ull;
    vf_grid_level(p, lv, chosen, edges);
    VF_MARK(2);
    vf_level_end(p, edges, lv.outCounter + 1, sh);
    VF_MARK(3);
    if (clockKeeper) {
      vf_u64 now = vf_now();
      *vf_log_nanos(p, level) = now - clock;
      clock = now;
    }
    previous = chosen;
    level++;
  }
  if (clockKeeper) {
    p.state[VF_STATE_LEVELS] = (vf_u64)level;
    p.state[VF_STATE_T_START] = start;
    p.state[VF_STATE_T_END] = clock;
  }
}

// The per-level-launch baseline: level `level` with `topology` as an ordinary launch, the host
// deciding between launches; FusedWave runs as a grid of one block.
extern "C" __global__ void __launch_bounds__(1024) vyre_frontier_level(VfParams p, int level, int topology) {
  __shared__ VfShared sh;
  if (threadIdx.x == 0) {
    vf_u64* counter = vf_counter(p, level);
    sh.inCount = (long long)__ldcg(counter);
    sh.hubCount = (long long)__ldcg(vf_hub_counter(p, level));
    sh.hybridPull = vf_hybrid_pull(p, level, (long long)__ldcg(counter + 1));
  }
  __syncthreads();
  vf_u64 edges = 0ull;
  if (topology == VF_FUSED) {
    edges = vf_fused_level(p, level, true, sh.scratch);
  } else {
    long long thread = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    vf_clear_bits(p, vf_bits(p, level + 2), thread, gridDim.x * (long long)blockDim.x);
    if (thread == 0) vf_reset_counter(p, level);
    vf_grid_level(p, vf_level(p, level, sh.inCount, sh.hubCount, sh.hybridPull), topology, edges);
    edges = vf_block_sum(edges, sh.scratch);
  }
  if (threadIdx.x == 0 && edges != 0ull) atomicAdd(vf_counter(p, level + 1) + 1, edges);
}

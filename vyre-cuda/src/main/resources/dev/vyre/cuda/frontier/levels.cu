// One level of every topology (docs/FRONTIER.md, "The topologies"). A level reads the input frontier
// (a queue of vertices and the same set as a bitmap) and writes the next one in both forms; every
// thread adds the out-degrees of the vertices it enqueues to its `edges`, which the caller sums per
// block into the next frontier's edge count. Push topologies take the queue, pull ones the bitmap.

// The push topologies over the queue, warp-uniform so that a warp can take its lanes' large vertices:
// a lane walks a vertex of at most threadLimit edges alone, the warp each larger one, its lanes
// striding the edges (so that a vertex of many edges never holds one thread). With skipHubs the
// hubs are left to vf_push_hubs.
__device__ void vf_push_queue(const VfParams& p, const VfLevel& lv, long long warp, long long warps, int threadLimit,
                              bool skipHubs, vf_u64& edges) {
  for (long long base = warp * 32; base < lv.inCount; base += warps * 32) {
    long long i = base + vf_lane();
    bool valid = i < lv.inCount;
    int u = valid ? __ldcg(lv.inQueue + i) : 0;
    long long begin = valid ? __ldg(p.row + u) : 0;
    long long end = valid ? __ldg(p.row + u + 1) : 0;
    if (skipHubs && end - begin > VF_HUB_DEGREE) end = begin;
    int label = valid ? vf_label(p, u) : 0;
    bool large = end - begin > threadLimit;
    if (!large) vf_push_edges(p, lv, u, label, begin, end, 1, edges);
    unsigned pending = __ballot_sync(VF_FULL_MASK, large);
    while (pending != 0u) {
      int src = __ffs(pending) - 1;
      pending &= pending - 1u;
      int w = __shfl_sync(VF_FULL_MASK, u, src);
      int wLabel = __shfl_sync(VF_FULL_MASK, label, src);
      long long wBegin = __shfl_sync(VF_FULL_MASK, begin, src);
      long long wEnd = __shfl_sync(VF_FULL_MASK, end, src);
      vf_push_edges(p, lv, w, wLabel, wBegin + vf_lane(), wEnd, 32, edges);
    }
  }
}

// WarpSparseFrontier: one warp per frontier vertex (hubs aside), its lanes striding the vertex's edges.
__device__ void vf_warp_sparse(const VfParams& p, const VfLevel& lv, long long warp, long long warps, vf_u64& edges) {
  for (long long i = warp; i < lv.inCount; i += warps) {
    int u = __ldcg(lv.inQueue + i);
    long long begin = __ldg(p.row + u);
    long long end = __ldg(p.row + u + 1);
    if (end - begin <= VF_HUB_DEGREE) vf_push_edges(p, lv, u, vf_label(p, u), begin + vf_lane(), end, 32, edges);
  }
}

// The frontier's hubs pushed by the whole grid, 32 at a time: the threads of a slice of the grid
// stride the concatenation of the 32 hubs' edges (a lane finds its edge's hub by a binary search over
// the lanes' prefix sums), so no hub holds one warp and no work counter is shared. The grid is cut
// into as many slices (warps w with the same w % slices) as it has threads for 32 hubs of
// VF_HUB_DEGREE edges, VF_BATCH edges a thread, so that groups of small hubs run side by side.
__device__ void vf_push_hubs(const VfParams& p, const VfLevel& lv, long long thread, long long threads, vf_u64& edges) {
  long long warp = thread >> 5;
  long long warps = threads >> 5;
  long long groups = (lv.hubCount + 31) >> 5;
  long long slices = max(1ll, min(groups, threads * VF_BATCH / (32ll * VF_HUB_DEGREE)));
  long long slice = warp % slices;
  long long sliceThreads = ((warps - slice + slices - 1) / slices) * 32;
  long long sliceThread = (warp / slices) * 32 + vf_lane();
  for (long long group = slice * 32; group < lv.hubCount; group += slices * 32) {
    long long i = group + vf_lane();
    bool valid = i < lv.hubCount;
    int u = valid ? __ldcg(lv.inHubs + i) : 0;
    long long begin = valid ? __ldg(p.row + u) : 0;
    long long degree = valid ? __ldg(p.row + u + 1) - begin : 0;
    int label = valid ? vf_label(p, u) : 0;
    long long end = degree;  // inclusive prefix sum over the lanes
    for (int d = 1; d < 32; d <<= 1) {
      long long below = __shfl_up_sync(VF_FULL_MASK, end, d);
      if ((int)vf_lane() >= d) end += below;
    }
    long long total = __shfl_sync(VF_FULL_MASK, end, 31);
    long long shift = begin - (end - degree);  // edge e of the concatenation is column e + shift of its hub
    for (long long base = sliceThread - vf_lane(); base < total; base += sliceThreads * VF_BATCH) {
      int v[VF_BATCH], src[VF_BATCH], srcLabel[VF_BATCH], seen[VF_BATCH];
#pragma unroll
      for (int k = 0; k < VF_BATCH; k++) {
        long long e = base + vf_lane() + k * sliceThreads;
        int j = 0;
        for (int step = 16; step > 0; step >>= 1) {
          if (__shfl_sync(VF_FULL_MASK, end, j + step - 1) <= e) j += step;
        }
        long long at = e + __shfl_sync(VF_FULL_MASK, shift, j);
        src[k] = __shfl_sync(VF_FULL_MASK, u, j);
        srcLabel[k] = __shfl_sync(VF_FULL_MASK, label, j);
        v[k] = e < total ? __ldg(p.col + at) : -1;
      }
#pragma unroll
      for (int k = 0; k < VF_BATCH; k++) seen[k] = v[k] >= 0 ? __ldcg(p.value + v[k]) : 0;
#pragma unroll
      for (int k = 0; k < VF_BATCH; k++) {
        if (v[k] >= 0) vf_push(p, lv, src[k], srcLabel[k], v[k], seen[k], edges);
      }
    }
  }
}

// Pull into v over its in-edges begin..end, by its lane alone: whether v joins the next frontier (the
// caller sets its bit and enqueues it). BFS: an unvisited v takes its first in-neighbour in the
// frontier as parent. Components: v takes the smallest label of its in-neighbours in the frontier
// when it is below its own (`own`).
__device__ __forceinline__ bool vf_pull_lane(const VfParams& p, const VfLevel& lv, int v, int own, long long begin,
                                             long long end) {
  bool bfs = p.algorithm == VF_BFS;
  int best = own;
  for (long long e = begin; e < end; e += VF_BATCH) {
    int u[VF_BATCH];
    unsigned word[VF_BATCH];
#pragma unroll
    for (int k = 0; k < VF_BATCH; k++) u[k] = e + k < end ? __ldg(p.inCol + e + k) : -1;
#pragma unroll
    for (int k = 0; k < VF_BATCH; k++) word[k] = u[k] >= 0 ? __ldcg(lv.inBits + (u[k] >> 5)) : 0u;
#pragma unroll
    for (int k = 0; k < VF_BATCH; k++) {
      if (u[k] < 0 || ((word[k] >> (u[k] & 31)) & 1u) == 0u) continue;
      if (bfs) {
        p.value[v] = lv.level + 1;
        p.parent[v] = u[k];
        return true;
      }
      best = min(best, __ldcg(p.value + u[k]));
    }
  }
  return !bfs && best < own && atomicMin(p.value + v, best) > best;
}

// The same pull by the whole warp, its lanes striding the in-edges (all lanes call it; the answer is
// the warp's): BFS stops at the first batch holding a frontier in-neighbour, components take the
// warp's minimum.
__device__ bool vf_pull_warp(const VfParams& p, const VfLevel& lv, int v, int own, long long begin, long long end) {
  bool bfs = p.algorithm == VF_BFS;
  int best = own;
  for (long long base = begin; base < end; base += 32 * VF_BATCH) {
    int u[VF_BATCH];
    unsigned word[VF_BATCH];
#pragma unroll
    for (int k = 0; k < VF_BATCH; k++) {
      long long e = base + k * 32 + vf_lane();
      u[k] = e < end ? __ldg(p.inCol + e) : -1;
    }
#pragma unroll
    for (int k = 0; k < VF_BATCH; k++) word[k] = u[k] >= 0 ? __ldcg(lv.inBits + (u[k] >> 5)) : 0u;
    int found = -1;
#pragma unroll
    for (int k = 0; k < VF_BATCH; k++) {
      if (u[k] < 0 || ((word[k] >> (u[k] & 31)) & 1u) == 0u) continue;
      if (bfs) {
        if (found < 0) found = u[k];
      } else {
        best = min(best, __ldcg(p.value + u[k]));
      }
    }
    unsigned hits = __ballot_sync(VF_FULL_MASK, found >= 0);
    if (hits != 0u) {
      if ((int)vf_lane() == __ffs(hits) - 1) {
        p.value[v] = lv.level + 1;
        p.parent[v] = found;
      }
      return true;
    }
  }
  if (bfs) return false;
  best = __reduce_min_sync(VF_FULL_MASK, best);
  int old = best < own && vf_lane() == 0 ? atomicMin(p.value + v, best) : best;
  return __shfl_sync(VF_FULL_MASK, old, 0) > best;
}

// Every lane's pull into its vertex v (when `valid`), warp-uniform: a lane pulls alone over at most
// VF_PULL_HEAVY in-edges and hands a heavier vertex to the warp (BFS: the rest of it, after its first
// batch), so no lane walks a hub alone; for components it leaves the in-hubs to vf_pull_hubs.
__device__ bool vf_pull(const VfParams& p, const VfLevel& lv, bool valid, int v) {
  bool bfs = p.algorithm == VF_BFS;
  int own = valid ? __ldcg(p.value + v) : 0;
  bool candidate = valid && (!bfs || own == -1);
  long long begin = candidate ? __ldg(p.inRow + v) : 0;
  long long end = candidate ? __ldg(p.inRow + v + 1) : 0;
  if (!bfs && end - begin > VF_HUB_DEGREE) candidate = false;  // vf_pull_hubs' work
  bool heavy = candidate && end - begin > VF_PULL_HEAVY;
  bool joins = false;
  if (candidate && (!heavy || bfs)) {
    // BFS stops at the first frontier in-neighbour, most often in the first batch: a heavy vertex's
    // lane tries that batch itself, so the warp takes (one at a time) only the heavy vertices left open.
    long long laneEnd = heavy ? begin + VF_BATCH : end;
    joins = vf_pull_lane(p, lv, v, own, begin, laneEnd);
    heavy = heavy && !joins;
    begin = laneEnd;
  }
  unsigned pending = __ballot_sync(VF_FULL_MASK, heavy);
  while (pending != 0u) {
    int src = __ffs(pending) - 1;
    pending &= pending - 1u;
    bool warpJoins = vf_pull_warp(p, lv, __shfl_sync(VF_FULL_MASK, v, src), __shfl_sync(VF_FULL_MASK, own, src),
                                  __shfl_sync(VF_FULL_MASK, begin, src), __shfl_sync(VF_FULL_MASK, end, src));
    if ((int)vf_lane() == src) joins = warpJoins;
  }
  return joins;
}

// Components' pull into the in-hubs (vertices of more than VF_HUB_DEGREE in-edges, listed once by
// vf_init), which vf_pull leaves to the whole grid: as vf_push_hubs, slices of the grid stride the hubs'
// concatenated in-edges, 32 hubs at a time, and each frontier in-neighbour u of hub v pushes along
// u -> v (the lanes of a warp that found the same hub elect one, with the smallest label), so that a
// hub's pull is spread over the grid however the hubs cluster in id.
__device__ void vf_pull_hubs(const VfParams& p, const VfLevel& lv, long long thread, long long threads, vf_u64& edges) {
  const int* hubs = p.queue0 + p.n + p.m / (VF_HUB_DEGREE + 1);
  long long count = (long long)__ldcg(p.state + VF_STATE_IN_HUBS);
  long long warp = thread >> 5;
  long long warps = threads >> 5;
  long long slices = max(1ll, min((count + 31) >> 5, threads * VF_BATCH / (32ll * VF_HUB_DEGREE)));
  long long slice = warp % slices;
  long long sliceThreads = ((warps - slice + slices - 1) / slices) * 32;
  long long sliceThread = (warp / slices) * 32 + vf_lane();
  for (long long group = slice * 32; group < count; group += slices * 32) {
    long long i = group + vf_lane();
    int v = i < count ? __ldcg(hubs + i) : 0;
    bool open = i < count;
    long long begin = open ? __ldg(p.inRow + v) : 0;
    long long degree = open ? __ldg(p.inRow + v + 1) - begin : 0;
    long long end = degree;  // inclusive prefix sum over the lanes
    for (int d = 1; d < 32; d <<= 1) {
      long long below = __shfl_up_sync(VF_FULL_MASK, end, d);
      if ((int)vf_lane() >= d) end += below;
    }
    long long total = __shfl_sync(VF_FULL_MASK, end, 31);
    long long shift = begin - (end - degree);
    for (long long base = sliceThread - vf_lane(); base < total; base += sliceThreads * VF_BATCH) {
      int u[VF_BATCH], hub[VF_BATCH];
      unsigned word[VF_BATCH];
#pragma unroll
      for (int k = 0; k < VF_BATCH; k++) {
        long long e = base + vf_lane() + k * sliceThreads;
        int j = 0;
        for (int step = 16; step > 0; step >>= 1) {
          if (__shfl_sync(VF_FULL_MASK, end, j + step - 1) <= e) j += step;
        }
        long long at = e + __shfl_sync(VF_FULL_MASK, shift, j);
        int owner = __shfl_sync(VF_FULL_MASK, v, j);
        hub[k] = e < total ? owner : -1;
        u[k] = e < total ? __ldg(p.inCol + at) : -1;
      }
#pragma unroll
      for (int k = 0; k < VF_BATCH; k++) word[k] = u[k] >= 0 ? __ldcg(lv.inBits + (u[k] >> 5)) : 0u;
#pragma unroll
      for (int k = 0; k < VF_BATCH; k++) {
        bool hit = u[k] >= 0 && ((word[k] >> (u[k] & 31)) & 1u) != 0u;
        int label = hit ? __ldcg(p.value + u[k]) : 0;
        unsigned same = __match_any_sync(VF_FULL_MASK, hit ? hub[k] : -1);
        label = __reduce_min_sync(same, label);
        if (hit && (int)vf_lane() == __ffs(same) - 1) {
          vf_push(p, lv, u[k], label, hub[k], __ldcg(p.value + hub[k]), edges);
        }
      }
    }
  }
}

// DenseFrontier: one thread per vertex, pulling (warp-uniform, for vf_pull).
__device__ void vf_dense(const VfParams& p, const VfLevel& lv, long long thread, long long threads, vf_u64& edges) {
  for (long long base = thread - vf_lane(); base < p.n; base += threads) {
    long long v = base + vf_lane();
    if (vf_pull(p, lv, v < p.n, (int)v)) {
      atomicOr(lv.outBits + (v >> 5), 1u << (v & 31));
      long long degree = vf_out_degree(p, (int)v);
      vf_enqueue(lv, (int)v, degree);
      edges += (vf_u64)degree;
    }
  }
}

// BlockDenseFrontier: a warp per 32-vertex bitmap word, a lane per vertex; the warp sets its word's
// bits of the next bitmap and enqueues with one atomic each (vf_pull_hubs may set the in-hubs' bits of
// the same word). Warps take VF_PULL_CHUNK words at a time from the level's counter, so that a warp
// held up by heavy vertices (a power-law graph's hubs sit together) leaves the rest to the others.
__device__ void vf_block_dense(const VfParams& p, const VfLevel& lv, vf_u64& edges) {
  long long used = (p.n + 31) >> 5;
  vf_u64* taken = p.state + VF_STATE_PULL_WORK + lv.level % 3;
  for (;;) {
    vf_u64 first = vf_lane() == 0 ? atomicAdd(taken, (vf_u64)VF_PULL_CHUNK) : 0ull;
    long long chunk = (long long)__shfl_sync(VF_FULL_MASK, first, 0);
    if (chunk >= used) return;
    for (long long word = chunk; word < min(used, chunk + VF_PULL_CHUNK); word++) {
      long long v = word * 32 + vf_lane();
      bool joins = vf_pull(p, lv, v < p.n, (int)v);
      unsigned ballot = __ballot_sync(VF_FULL_MASK, joins);
      if (ballot == 0u) continue;
      vf_u64 base = 0;
      if (vf_lane() == 0) {
        atomicOr(lv.outBits + word, ballot);
        base = atomicAdd(lv.outCounter, (vf_u64)__popc(ballot));
      }
      base = __shfl_sync(VF_FULL_MASK, base, 0);
      if (joins) {
        lv.outQueue[base + __popc(ballot & ((1u << vf_lane()) - 1u))] = (int)v;
        long long degree = vf_out_degree(p, (int)v);
        vf_list_hub(lv, (int)v, degree);
        edges += (vf_u64)degree;
      }
    }
  }
}

// Zeroes a bitmap 16 bytes a store, worker `worker` of `workers`.
__device__ __forceinline__ void vf_clear_bits(const VfParams& p, unsigned* bits, long long worker, long long workers) {
  uint4* words = reinterpret_cast<uint4*>(bits);
  for (long long i = worker; i < p.words / 4; i += workers) words[i] = make_uint4(0u, 0u, 0u, 0u);
}

// The counters level `level`'s next level writes: level - 1's input frontier's, which every block has
// finished reading (its bitmap is cleared alongside); and level - 1's pull counter, for level + 2.
__device__ __forceinline__ void vf_reset_counter(const VfParams& p, int level) {
  vf_u64* stale = vf_counter(p, level + 2);
  stale[0] = 0ull;
  stale[1] = 0ull;
  *vf_hub_counter(p, level + 2) = 0ull;
  p.state[VF_STATE_PULL_WORK + (level + 2) % 3] = 0ull;
}

// Whether a Hybrid level `level` with `edges` frontier edges pulls (Beamer's direction-optimizing
// switch): once its edges exceed the unexplored edges / VF_HYBRID_ALPHA. BFS's unexplored edges are
// the stored edges less the out-edges of every vertex reached so far, this level's frontier included
// (the running sum of the frontier edges); components compare with all the stored edges. Thread 0 of
// every block calls it for every level, in order; block 0 keeps the sum in the state block, level L's
// in word L % 2, so that the word read was written a barrier ago.
__device__ bool vf_hybrid_pull(const VfParams& p, int level, long long edges) {
  long long explored = (long long)__ldcg(p.state + VF_STATE_EXPLORED + ((level + 1) & 1)) + edges;
  if (blockIdx.x == 0) p.state[VF_STATE_EXPLORED + (level & 1)] = (vf_u64)explored;
  long long unexplored = p.algorithm == VF_BFS ? p.m - explored : p.m;
  return edges > unexplored / VF_HYBRID_ALPHA;
}

// The work of a grid-wide level with `topology`. Push levels first stride the grid over the
// frontier's hubs, pull levels over the in-hubs.
__device__ void vf_grid_level(const VfParams& p, const VfLevel& lv, int topology, vf_u64& edges) {
  long long thread = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long threads = gridDim.x * (long long)blockDim.x;
  if (topology == VF_HYBRID && lv.hybridPull) topology = VF_BLOCK_DENSE;
  bool push = topology == VF_WARP_SPARSE || topology == VF_SPARSE || topology == VF_HYBRID;
  if (push && lv.hubCount != 0) vf_push_hubs(p, lv, thread, threads, edges);
  // Components read every in-edge of a hub, so the grid shares them; BFS's pull stops at the first
  // frontier in-neighbour, which a hub's warp finds soon, and is faster left to vf_pull.
  if (!push && p.algorithm != VF_BFS) vf_pull_hubs(p, lv, thread, threads, edges);
  switch (topology) {
    case VF_WARP_SPARSE: vf_warp_sparse(p, lv, thread >> 5, threads >> 5, edges); break;
    case VF_SPARSE: vf_push_queue(p, lv, thread >> 5, threads >> 5, VF_THREAD_HUB, true, edges); break;
    case VF_HYBRID: vf_push_queue(p, lv, thread >> 5, threads >> 5, 32, true, edges); break;
    case VF_DENSE: vf_dense(p, lv, thread, threads, edges); break;
    default: vf_block_dense(p, lv, edges); break;
  }
}

// One FusedWave level run by the calling block alone (Hybrid's split); returns the block's new
// frontier edges in thread 0. With clearStale the block first clears what vf_reset_counter and the
// grid-wide bitmap clear would: level - 1's input bitmap, from its queue, which this level is about
// to overwrite (or the whole bitmap when that is cheaper), then a block barrier.
__device__ vf_u64 vf_fused_level(const VfParams& p, int level, bool clearStale, vf_u64* scratch) {
  if (clearStale) {
    vf_u64* staleCounter = vf_counter(p, level + 2);
    unsigned* stale = vf_bits(p, level + 2);
    long long staleCount = (long long)__ldcg(staleCounter);
    if (staleCount * 4 < p.words) {
      const int* staleQueue = vf_queue(p, level + 1);
      for (long long i = threadIdx.x; i < staleCount; i += blockDim.x) stale[__ldcg(staleQueue + i) >> 5] = 0u;
    } else {
      vf_clear_bits(p, stale, threadIdx.x, blockDim.x);
    }
    __syncthreads();
    if (threadIdx.x == 0) vf_reset_counter(p, level);
  }
  VfLevel lv = vf_level(p, level, (long long)__ldcg(vf_counter(p, level)), 0, false);
  vf_u64 edges = 0ull;
  vf_push_queue(p, lv, threadIdx.x >> 5, blockDim.x >> 5, 32, false, edges);
  return vf_block_sum(edges, scratch);
}

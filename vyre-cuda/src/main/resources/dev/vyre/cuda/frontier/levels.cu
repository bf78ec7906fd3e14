// One level of every topology (docs/FRONTIER.md, "The topologies"). A level reads the input frontier
// (a queue of vertices and the same set as a bitmap) and writes the next one in both forms; every
// thread adds the out-degrees of the vertices it enqueues to its `edges`, which the caller sums per
// block into the next frontier's edge count. Push topologies take the queue, pull ones the bitmap.

// The push topologies over the queue, warp-uniform so that a warp can take its lanes' large vertices:
// a lane walks a vertex of at most threadLimit edges alone, the warp each larger one, its lanes
// striding the edges (so that a hub never holds one thread).
__device__ void vf_push_queue(const VfParams& p, const VfLevel& lv, long long warp, long long warps, int threadLimit,
                              vf_u64& edges) {
  for (long long base = warp * 32; base < lv.inCount; base += warps * 32) {
    long long i = base + vf_lane();
    bool valid = i < lv.inCount;
    int u = valid ? __ldcg(lv.inQueue + i) : 0;
    long long begin = valid ? __ldg(p.row + u) : 0;
    long long end = valid ? __ldg(p.row + u + 1) : 0;
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

// WarpSparseFrontier: one warp per frontier vertex, its lanes striding the vertex's edges.
__device__ void vf_warp_sparse(const VfParams& p, const VfLevel& lv, long long warp, long long warps, vf_u64& edges) {
  for (long long i = warp; i < lv.inCount; i += warps) {
    int u = __ldcg(lv.inQueue + i);
    vf_push_edges(p, lv, u, vf_label(p, u), __ldg(p.row + u) + vf_lane(), __ldg(p.row + u + 1), 32, edges);
  }
}

// Pull into v: whether v joins the next frontier (the caller sets its bit and enqueues it). BFS: an
// unvisited v takes its first in-neighbour in the frontier as parent. Components: v takes the
// smallest label of its in-neighbours in the frontier when it is below its own.
__device__ __forceinline__ bool vf_pull(const VfParams& p, const VfLevel& lv, int v) {
  bool bfs = p.algorithm == VF_BFS;
  int own = __ldcg(p.value + v);
  if (bfs && own != -1) return false;
  int best = own;
  long long end = __ldg(p.inRow + v + 1);
  for (long long e = __ldg(p.inRow + v); e < end; e += VF_BATCH) {
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

// DenseFrontier: one thread per vertex, pulling.
__device__ void vf_dense(const VfParams& p, const VfLevel& lv, long long thread, long long threads, vf_u64& edges) {
  for (long long v = thread; v < p.n; v += threads) {
    if (vf_pull(p, lv, (int)v)) {
      atomicOr(lv.outBits + (v >> 5), 1u << (v & 31));
      vf_enqueue(lv, (int)v);
      edges += (vf_u64)vf_out_degree(p, (int)v);
    }
  }
}

// BlockDenseFrontier: each block owns a contiguous range of bitmap words, a warp per word, a lane
// per vertex; the warp writes its word of the next bitmap whole (no atomics) and enqueues with one.
__device__ void vf_block_dense(const VfParams& p, const VfLevel& lv, vf_u64& edges) {
  long long used = (p.n + 31) >> 5;
  long long per = (used + gridDim.x - 1) / gridDim.x;
  long long first = per * blockIdx.x;
  long long last = min(used, first + per);
  for (long long word = first + (threadIdx.x >> 5); word < last; word += blockDim.x >> 5) {
    long long v = word * 32 + vf_lane();
    bool joins = v < p.n && vf_pull(p, lv, (int)v);
    unsigned ballot = __ballot_sync(VF_FULL_MASK, joins);
    if (ballot == 0u) continue;
    vf_u64 base = 0;
    if (vf_lane() == 0) {
      lv.outBits[word] = ballot;
      base = atomicAdd(lv.outCounter, (vf_u64)__popc(ballot));
    }
    base = __shfl_sync(VF_FULL_MASK, base, 0);
    if (joins) {
      lv.outQueue[base + __popc(ballot & ((1u << vf_lane()) - 1u))] = (int)v;
      edges += (vf_u64)vf_out_degree(p, (int)v);
    }
  }
}

// Zeroes a bitmap 16 bytes a store, worker `worker` of `workers`.
__device__ __forceinline__ void vf_clear_bits(const VfParams& p, unsigned* bits, long long worker, long long workers) {
  uint4* words = reinterpret_cast<uint4*>(bits);
  for (long long i = worker; i < p.words / 4; i += workers) words[i] = make_uint4(0u, 0u, 0u, 0u);
}

// The counter level `level`'s next level writes: level - 1's input frontier's, which every block has
// finished reading (its bitmap is cleared alongside).
__device__ __forceinline__ void vf_reset_counter(const VfParams& p, int level) {
  vf_u64* stale = vf_counter(p, level + 2);
  stale[0] = 0ull;
  stale[1] = 0ull;
}

// The work of a grid-wide level with `topology`.
__device__ void vf_grid_level(const VfParams& p, const VfLevel& lv, int topology, vf_u64& edges) {
  long long thread = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long threads = gridDim.x * (long long)blockDim.x;
  switch (topology) {
    case VF_WARP_SPARSE: vf_warp_sparse(p, lv, thread >> 5, threads >> 5, edges); break;
    case VF_SPARSE: vf_push_queue(p, lv, thread >> 5, threads >> 5, VF_THREAD_HUB, edges); break;
    case VF_HYBRID: vf_push_queue(p, lv, thread >> 5, threads >> 5, 32, edges); break;
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
  VfLevel lv = vf_level(p, level);
  vf_u64 edges = 0ull;
  vf_push_queue(p, lv, threadIdx.x >> 5, blockDim.x >> 5, 32, edges);
  return vf_block_sum(edges, scratch);
}

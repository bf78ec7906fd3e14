// The frontier kernel's shared ground: parameters, the state block's layout, the rotating frontier
// (three bitmaps and counters, two queues) and the push of one edge, which every topology uses.

#define VF_FULL_MASK 0xFFFFFFFFu

// A point in a level that the frontier lab times (scripts/kernel-lab/frontier_lab.cu defines it); nothing here.
#ifndef VF_MARK
#define VF_MARK(point)
#endif

__device__ __forceinline__ unsigned vf_lane() { return threadIdx.x & 31u; }

__device__ __forceinline__ unsigned vf_load_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.u32 %0,[%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// Adds with release semantics: the caller's (and, after a __syncthreads, its block's) earlier writes
// are visible to whoever acquires the sum.
__device__ __forceinline__ unsigned vf_add_release(unsigned* p, unsigned v) {
  unsigned old;
  asm volatile("atom.add.release.gpu.u32 %0,[%1],%2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

// The sum of x over the block, valid in thread 0; all threads must call it. `scratch` is 32 words of
// shared memory that the caller does not touch again before its next __syncthreads.
__device__ __forceinline__ vf_u64 vf_block_sum(vf_u64 x, vf_u64* scratch) {
  for (int offset = 16; offset > 0; offset >>= 1) x += __shfl_down_sync(VF_FULL_MASK, x, offset);
  if (vf_lane() == 0) scratch[threadIdx.x >> 5] = x;
  __syncthreads();
  if (threadIdx.x < 32) {
    x = threadIdx.x < (blockDim.x >> 5) ? scratch[threadIdx.x] : 0ull;
    for (int offset = 16; offset > 0; offset >>= 1) x += __shfl_down_sync(VF_FULL_MASK, x, offset);
  }
  return x;
}

// VfParams.algorithm: what vyre_frontier_run traverses (vyre_afforest_run is Afforest's own entry point).
#define VF_BFS 0
#define VF_COMPONENTS 1
#define VF_AFFOREST 2

// Edges whose loads a thread issues together.
#define VF_BATCH 4
// SparseFrontier's thread walks a vertex of up to this many edges; its warp walks a larger one.
#define VF_THREAD_HUB 64
// A vertex of more out-edges is a hub: listed apart when it joins a frontier, and pushed by the whole
// grid on grid-wide push levels (one warp would hold the level for its edges); likewise a vertex of
// more in-edges on pull levels. The host sizes each queue for n vertices, the hub list after them and
// room for the in-hubs' list (queue 0's; FrontierLog.queueInts), m / (VF_HUB_DEGREE + 1) each.
#define VF_HUB_DEGREE 1024
// A pull lane hands a vertex of more in-edges to its whole warp.
#define VF_PULL_HEAVY 128
// Bitmap words a warp takes at a time on a grid-wide pull level.
#define VF_PULL_CHUNK 4
// HybridFrontier pulls once the frontier's edges exceed the unexplored edges / this (Beamer's alpha).
#define VF_HYBRID_ALPHA 14

// The kernel's parameters, passed by value; FrontierKernelParams packs them on the host in this
// order, every field 8 bytes.
struct VfParams {
  const long long* row;    // out-edges: n + 1 offsets
  const int* col;          // m targets
  const long long* inRow;  // in-edges for pull (the out-edges again on an undirected graph)
  const int* inCol;
  int* value;              // depth (BFS) or label (components)
  int* parent;             // BFS only
  int* queue0;             // the input frontiers of even levels
  int* queue1;             // and of odd ones
  unsigned* bitmaps;       // three of `words` words: level L reads L % 3 and writes (L + 1) % 3
  vf_u64* state;           // counters, barrier, results (VF_STATE_*)
  vf_u64* log;             // VF_LOG_WORDS a level, `logLevels` levels, wrapping
  unsigned* decisions;     // the decision table (vf_fill_decisions), or null
  long long n;
  long long m;
  long long words;         // a multiple of 4, so that clears go 16 bytes at a time
  long long requiredBytes;
  long long budgetBytes;
  long long readbackBytes;
  long long fitting;
  long long forced;
  long long algorithm;
  long long source;
  long long logLevels;
  long long probeEdges;
  long long calibrateOnly;
};

// state words, a 128-byte line apart where several SMs hammer them: the three rotating frontier
// counters {vertices, edges} (level L's input is counter L % 3) and hub counts (level L's at 6 + L %
// 3); the barrier's arrival word; what the host reads back; the explored edges (two words, level L's
// sum at 40 + L % 2); the fused edge cost; the in-hubs listed. The host zeroes the block before a launch.
#define VF_STATE_COUNTERS 0
#define VF_STATE_HUB_COUNTERS 6
#define VF_STATE_BARRIER 16
#define VF_STATE_LEVELS 32
#define VF_STATE_T_START 33
#define VF_STATE_T_END 34
#define VF_STATE_BARRIER_NANOS 35
#define VF_STATE_EDGE_NANOS 36
#define VF_STATE_HANDOFF 37
#define VF_STATE_SINK 38
#define VF_STATE_FUSED_EDGE_NANOS 39
#define VF_STATE_EXPLORED 40
#define VF_STATE_IN_HUBS 42
#define VF_STATE_PULL_WORK 43
#define VF_STATE_FUSED_START 46
#define VF_STATE_FUSED_END 47
#define VF_STATE_WORDS 48

// A level's log entry: frontier vertices, frontier edges, topology, three unused words (the host derives the
// decision's pressures from the edges), nanos.
#define VF_LOG_WORDS 8

struct VfLevel {
  const int* inQueue;
  long long inCount;
  const unsigned* inBits;
  int* outQueue;
  vf_u64* outCounter;  // {vertices (the queue's tail), edges}
  unsigned* outBits;
  const int* inHubs;   // the input frontier's hubs, hubCount of them
  long long hubCount;
  int* outHubs;
  vf_u64* outHubCounter;
  int level;
  bool hybridPull;     // a Hybrid level pulls (vf_hybrid_pull)
};

__device__ __forceinline__ vf_u64* vf_counter(const VfParams& p, int level) {
  return p.state + VF_STATE_COUNTERS + 2 * (level % 3);
}

__device__ __forceinline__ unsigned* vf_bits(const VfParams& p, int level) { return p.bitmaps + (level % 3) * p.words; }

__device__ __forceinline__ int* vf_queue(const VfParams& p, int level) { return (level & 1) ? p.queue1 : p.queue0; }

__device__ __forceinline__ vf_u64* vf_hub_counter(const VfParams& p, int level) {
  return p.state + VF_STATE_HUB_COUNTERS + level % 3;
}

// Level `level`'s frontiers, with the counts of its input frontier and hubs and Hybrid's direction.
__device__ __forceinline__ VfLevel vf_level(const VfParams& p, int level, long long inCount, long long hubCount,
                                            bool hybridPull) {
  VfLevel lv;
  lv.inQueue = vf_queue(p, level);
  lv.inCount = inCount;
  lv.inBits = vf_bits(p, level);
  lv.outQueue = vf_queue(p, level + 1);
  lv.outCounter = vf_counter(p, level + 1);
  lv.outBits = vf_bits(p, level + 1);
  lv.inHubs = lv.inQueue + p.n;
  lv.hubCount = hubCount;
  lv.outHubs = lv.outQueue + p.n;
  lv.outHubCounter = vf_hub_counter(p, level + 1);
  lv.level = level;
  lv.hybridPull = hybridPull;
  return lv;
}

__device__ __forceinline__ long long vf_out_degree(const VfParams& p, int v) {
  return __ldg(p.row + v + 1) - __ldg(p.row + v);
}

// Lists v, of `degree` out-edges, among the next frontier's hubs when it is one.
__device__ __forceinline__ void vf_list_hub(const VfLevel& lv, int v, long long degree) {
  if (degree > VF_HUB_DEGREE) lv.outHubs[atomicAdd(lv.outHubCounter, 1ull)] = v;
}

// Appends v, of `degree` out-edges, to the next queue with one atomic per group of lanes arriving
// together.
__device__ __forceinline__ void vf_enqueue(const VfLevel& lv, int v, long long degree) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  unsigned rank = __popc(active & ((1u << vf_lane()) - 1u));
  vf_u64 base = 0;
  if ((int)vf_lane() == leader) base = atomicAdd(lv.outCounter, (vf_u64)__popc(active));
  base = __shfl_sync(active, base, leader);
  lv.outQueue[base + rank] = v;
  vf_list_hub(lv, v, degree);
}

// Push along u -> v, `seen` being v's value read a moment ago (the test before the atomic). BFS: the
// first to claim v's depth sets its parent and enqueues it. Components: the call that lowers v's
// label enqueues it, once (the bitmap's test-and-set).
__device__ __forceinline__ void vf_push(const VfParams& p, const VfLevel& lv, int u, int uLabel, int v, int seen,
                                        vf_u64& edges) {
  if (p.algorithm == VF_BFS) {
    if (seen != -1 || atomicCAS(p.value + v, -1, lv.level + 1) != -1) return;
    p.parent[v] = u;
    atomicOr(lv.outBits + (v >> 5), 1u << (v & 31));
  } else {
    if (seen <= uLabel || atomicMin(p.value + v, uLabel) <= uLabel) return;
    unsigned bit = 1u << (v & 31);
    if (atomicOr(lv.outBits + (v >> 5), bit) & bit) return;
  }
  long long degree = vf_out_degree(p, v);
  vf_enqueue(lv, v, degree);
  edges += (vf_u64)degree;
}

// Pushes u's edges begin, begin + stride, ... below end, VF_BATCH at a time so that their loads overlap.
__device__ __forceinline__ void vf_push_edges(const VfParams& p, const VfLevel& lv, int u, int uLabel, long long begin,
                                              long long end, int stride, vf_u64& edges) {
  for (long long e = begin; e < end; e += VF_BATCH * stride) {
    int v[VF_BATCH];
    int seen[VF_BATCH];
#pragma unroll
    for (int k = 0; k < VF_BATCH; k++) v[k] = e + k * stride < end ? __ldg(p.col + e + k * stride) : -1;
#pragma unroll
    for (int k = 0; k < VF_BATCH; k++) seen[k] = v[k] >= 0 ? __ldcg(p.value + v[k]) : 0;
#pragma unroll
    for (int k = 0; k < VF_BATCH; k++) {
      if (v[k] >= 0) vf_push(p, lv, u, uLabel, v[k], seen[k], edges);
    }
  }
}

__device__ __forceinline__ int vf_label(const VfParams& p, int u) {
  return p.algorithm == VF_BFS ? 0 : __ldcg(p.value + u);
}

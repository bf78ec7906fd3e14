// Afforest (Sutton, Ben-Nun and Barak, IPDPS 2018; GAP's CC), the engine's connected components, in one
// cooperative launch: its phases (Afforest.PLAN on the host) separated by the grid barrier, no host round
// trip between them. p.value holds the union-find forest: every vertex's parent, never larger than the
// vertex, so a root is the smallest id of its tree and the final labels need no relabelling.
//
// Memory ordering. A root is hooked only by atomicCAS from itself to a smaller id; every other write
// lowers a vertex's own parent to one of its ancestors (compress, by its one owner thread). So any value
// read of a parent, however stale, is an ancestor: a stale read costs a retry (the CAS fails) or an
// extra step of the climb, never a wrong link. Parents are read with __ldcg (L2, where the atomics
// land; never __ldg or L1, which would keep a value written in this launch by another SM). Between
// phases the grid barrier's release and acquire order every write before every later read.

// Rounds of neighbour sampling and vertices sampled, GAP's (Afforest.NEIGHBOR_ROUNDS, Afforest.SAMPLES).
#define VF_NEIGHBOR_ROUNDS 2
#define VF_SAMPLES 1024
// Afforest.SAMPLE_SEED: the host's sample of the same vertices finds the same component.
#define VF_SAMPLE_SEED 0x5EEDAF0E57ull
// Slots of a block's open-addressing count of the sampled labels: twice the samples, so it never fills.
#define VF_SAMPLE_SLOTS 2048
// AfforestPhase.Step's ordinals, which the phase log keeps.
#define VF_STEP_INIT 0
#define VF_STEP_LINK_NEIGHBOUR 1
#define VF_STEP_COMPRESS 2
#define VF_STEP_SAMPLE 3
#define VF_STEP_LINK_REST 4
#define VF_STEP_FINAL_COMPRESS 5
// The hubs (more than VF_HUB_DEGREE edges) listed by the init phase: their count in the first counter
// word, the list in queue0.
#define VF_AFFOREST_HUBS VF_STATE_COUNTERS

// Sample i's vertex of n: SplitMix64 of the seed and i, as Afforest.sampleVertex (and on the host for
// the kernel lab's check).
__host__ __device__ __forceinline__ int vf_sample_vertex(int i, long long n) {
  vf_u64 z = VF_SAMPLE_SEED + (vf_u64)(i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (int)((z ^ (z >> 31)) % (vf_u64)n);
}

// GAP's Link: climbs from u's and v's parents until they meet, hooking the larger root under the
// smaller when it finds one; a failed CAS means another link hooked it first, and the climb goes on.
__device__ __forceinline__ void vf_link(int* parent, int u, int v) {
  int a = __ldcg(parent + u);
  int b = __ldcg(parent + v);
  while (a != b) {
    int high = max(a, b);
    int low = min(a, b);
    int aboveHigh = __ldcg(parent + high);
    if (aboveHigh == low || (aboveHigh == high && atomicCAS(parent + high, high, low) == high)) return;
    a = __ldcg(parent + __ldcg(parent + high));
    b = __ldcg(parent + low);
  }
}

// Points v at its root. No link runs in a compress phase, so the roots stay; the other threads only
// shorten the chain meanwhile.
__device__ __forceinline__ void vf_compress(int* parent, int v) {
  int root = __ldcg(parent + v);
  for (int up = __ldcg(parent + root); up != root; up = __ldcg(parent + root)) root = up;
  parent[v] = root;
}

// The sum of x over the block in thread 0, with a block barrier after it, so that scratch is free again.
__device__ __forceinline__ vf_u64 vf_block_total(vf_u64 x, vf_u64* scratch) {
  vf_u64 total = vf_block_sum(x, scratch);
  __syncthreads();
  return total;
}

// Ends phase `phase` of the plan: the block's vertices and edges added to its log entry, the grid
// barrier, then block 0's thread 0 logs the step and its time (the host zeroed the entries).
__device__ void vf_phase_end(const VfParams& p, int phase, int step, int round, vf_u64 vertices, vf_u64 edges,
                             vf_u64* clock, VfShared& sh) {
  vf_u64* entry = p.log + phase * VF_LOG_WORDS;
  vf_u64 blockVertices = vf_block_total(vertices, sh.scratch);
  if (threadIdx.x == 0 && blockVertices != 0ull) atomicAdd(entry + 2, blockVertices);
  vf_level_end(p, edges, entry + 3, sh);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    vf_u64 now = vf_now();
    entry[0] = (vf_u64)step;
    entry[1] = (vf_u64)(long long)round;
    entry[4] = now - *clock;
    *clock = now;
  }
}

// The most frequent root among the samples, the smallest among equally frequent ones, and its count
// (packed: count << 32 | INT_MAX - root, so that the largest pack wins). Every block computes the same
// answer from the same compressed parents, so none waits for another's.
__device__ vf_u64 vf_most_frequent(const VfParams& p, int* slotLabel, int* slotCount, VfShared& sh) {
  for (int i = threadIdx.x; i < VF_SAMPLE_SLOTS; i += blockDim.x) {
    slotLabel[i] = -1;
    slotCount[i] = 0;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < VF_SAMPLES; i += blockDim.x) {
    int label = __ldcg(p.value + vf_sample_vertex(i, p.n));
    unsigned slot = ((unsigned)label * 2654435761u) & (VF_SAMPLE_SLOTS - 1);
    for (;;) {
      int held = atomicCAS(slotLabel + slot, -1, label);
      if (held == -1 || held == label) break;
      slot = (slot + 1) & (VF_SAMPLE_SLOTS - 1);
    }
    atomicAdd(slotCount + slot, 1);
  }
  __syncthreads();
  vf_u64 best = 0ull;
  for (int i = threadIdx.x; i < VF_SAMPLE_SLOTS; i += blockDim.x) {
    if (slotCount[i] > 0) best = max(best, (vf_u64)slotCount[i] << 32 | (vf_u64)(0x7FFFFFFF - slotLabel[i]));
  }
  for (int offset = 16; offset > 0; offset >>= 1) best = max(best, __shfl_down_sync(VF_FULL_MASK, best, offset));
  if (vf_lane() == 0) sh.scratch[threadIdx.x >> 5] = best;
  __syncthreads();
  if (threadIdx.x < 32) {
    best = threadIdx.x < (blockDim.x >> 5) ? sh.scratch[threadIdx.x] : 0ull;
    for (int offset = 16; offset > 0; offset >>= 1) best = max(best, __shfl_down_sync(VF_FULL_MASK, best, offset));
    if (threadIdx.x == 0) sh.scratch[0] = best;
  }
  __syncthreads();
  best = sh.scratch[0];
  __syncthreads();
  return best;
}

// Links every vertex outside the `largest` tree with its neighbours from index VF_NEIGHBOR_ROUNDS on:
// the listed hubs a block each (so that a hub holds no warp), the others a lane each up to 32 edges and
// a warp each above. Counts the vertices and edges linked.
__device__ void vf_link_rest(const VfParams& p, int largest, vf_u64& vertices, vf_u64& edges) {
  int* parent = p.value;
  long long hubs = (long long)__ldcg(p.state + VF_AFFOREST_HUBS);
  for (long long h = blockIdx.x; h < hubs; h += gridDim.x) {
    int u = __ldcg(p.queue0 + h);
    if (__ldcg(parent + u) == largest) continue;
    long long begin = __ldg(p.row + u) + VF_NEIGHBOR_ROUNDS;
    long long end = __ldg(p.row + u + 1);
    if (threadIdx.x == 0) {
      vertices++;
      edges += (vf_u64)(end - begin);
    }
    for (long long e = begin + threadIdx.x; e < end; e += blockDim.x) vf_link(parent, u, __ldg(p.col + e));
  }
  long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
  long long warps = (gridDim.x * (long long)blockDim.x) >> 5;
  for (long long base = warp * 32; base < p.n; base += warps * 32) {
    long long v = base + vf_lane();
    long long begin = v < p.n ? __ldg(p.row + v) + VF_NEIGHBOR_ROUNDS : 0;
    long long end = v < p.n ? __ldg(p.row + v + 1) : 0;
    bool open = end > begin && end - begin + VF_NEIGHBOR_ROUNDS <= VF_HUB_DEGREE && __ldcg(parent + v) != largest;
    bool large = open && end - begin > 32;
    if (open) {
      vertices++;
      edges += (vf_u64)(end - begin);
    }
    if (open && !large) {
      for (long long e = begin; e < end; e++) vf_link(parent, (int)v, __ldg(p.col + e));
    }
    unsigned pending = __ballot_sync(VF_FULL_MASK, large);
    while (pending != 0u) {
      int src = __ffs(pending) - 1;
      pending &= pending - 1u;
      int w = __shfl_sync(VF_FULL_MASK, (int)v, src);
      long long wBegin = __shfl_sync(VF_FULL_MASK, begin, src);
      long long wEnd = __shfl_sync(VF_FULL_MASK, end, src);
      for (long long e = wBegin + vf_lane(); e < wEnd; e += 32) vf_link(parent, w, __ldg(p.col + e));
    }
  }
}

extern "C" __global__ void __launch_bounds__(1024) vyre_afforest_run(VfParams p) {
  __shared__ VfShared sh;
  __shared__ int slotLabel[VF_SAMPLE_SLOTS];
  __shared__ int slotCount[VF_SAMPLE_SLOTS];
  long long thread = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long threads = gridDim.x * (long long)blockDim.x;
  int* parent = p.value;
  vf_u64 clock = thread == 0 ? vf_now() : 0ull;
  vf_u64 start = clock;
  int phase = 0;

  vf_u64 vertices = 0ull;
  for (long long v = thread; v < p.n; v += threads) {
    parent[v] = (int)v;
    if (vf_out_degree(p, (int)v) > VF_HUB_DEGREE) p.queue0[atomicAdd(p.state + VF_AFFOREST_HUBS, 1ull)] = (int)v;
    vertices++;
  }
  vf_phase_end(p, phase++, VF_STEP_INIT, -1, vertices, 0ull, &clock, sh);

  for (int round = 0; round < VF_NEIGHBOR_ROUNDS; round++) {
    vf_u64 linked = 0ull;
    for (long long v = thread; v < p.n; v += threads) {
      long long begin = __ldg(p.row + v);
      if (__ldg(p.row + v + 1) - begin > round) {
        vf_link(parent, (int)v, __ldg(p.col + begin + round));
        linked++;
      }
    }
    vf_phase_end(p, phase++, VF_STEP_LINK_NEIGHBOUR, round, linked, linked, &clock, sh);
    vertices = 0ull;
    for (long long v = thread; v < p.n; v += threads, vertices++) vf_compress(parent, (int)v);
    vf_phase_end(p, phase++, VF_STEP_COMPRESS, round, vertices, 0ull, &clock, sh);
  }

  // No barrier after the sample: every block finds the same root.
  vf_u64 best = p.n > 0 ? vf_most_frequent(p, slotLabel, slotCount, sh) : 0ull;
  int largest = p.n > 0 ? 0x7FFFFFFF - (int)(best & 0xFFFFFFFFull) : -1;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    vf_u64* entry = p.log + phase * VF_LOG_WORDS;
    vf_u64 now = vf_now();
    entry[0] = VF_STEP_SAMPLE;
    entry[1] = (vf_u64)-1ll;
    entry[2] = best >> 32;
    entry[4] = now - clock;
    clock = now;
  }
  phase++;

  vertices = 0ull;
  vf_u64 edges = 0ull;
  vf_link_rest(p, largest, vertices, edges);
  vf_phase_end(p, phase++, VF_STEP_LINK_REST, -1, vertices, edges, &clock, sh);

  vertices = 0ull;
  for (long long v = thread; v < p.n; v += threads, vertices++) vf_compress(parent, (int)v);
  vf_phase_end(p, phase++, VF_STEP_FINAL_COMPRESS, -1, vertices, 0ull, &clock, sh);
  if (thread == 0) {
    p.state[VF_STATE_LEVELS] = (vf_u64)phase;
    p.state[VF_STATE_T_START] = start;
    p.state[VF_STATE_T_END] = clock;
  }
}

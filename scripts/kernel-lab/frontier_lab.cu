// Frontier lab: the production frontier kernel (vyre-cuda/.../frontier/*.cu) without the JVM. Builds
// graphs in C++, runs the persistent kernel (and the per-level baseline) and Afforest's kernel as
// CudaFrontierEngine does, checks depths, parents, labels and Afforest's phase counts against serial
// code, and times traversals, components and barriers.
//   build: nvcc -O3 -arch=sm_90 -std=c++17 -Xcompiler -fopenmp scripts/kernel-lab/frontier_lab.cu -o frontier_lab
//   run:   frontier_lab check [block]          every topology on small graphs (exit 1 on a mismatch)
//          frontier_lab bench SCALE EF ROWS [block]   Kronecker SCALE/EF BFS and components, a ROWS x ROWS grid
//          frontier_lab small [block]          the first graph of `check` alone (for compute-sanitizer)
//          frontier_lab barrier [block]        this barrier against cooperative groups' grid.sync
//          frontier_lab kbfs SCALE EF [block]     Kronecker BFS alone: 16 random sources (harmonic mean), label propagation
//          frontier_lab grid ROWS [block]         a ROWS x ROWS grid's BFS from a corner, on the device and launched per level
//          frontier_lab levels SCALE EF [block]   Kronecker BFS from vertex 0 on the device, then launched per
//                                              level (for ncu: -k vyre_frontier_level --launch-skip L)
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

// The level's phases as block 0's thread 0 sees them (VF_MARK in the kernel), in SM cycles: a mark's time from
// the mark before it, counted only when that mark is the one that precedes it in a grid-wide level (0 top,
// 1 decided, 2 worked, 4 block summed, 5 arrived, 3 released), so that the calibration and fused runs stay
// out. Sums are kept in shared memory and stored (never loaded) to global memory, so that a mark costs no
// round trip; mark 6, at the kernel's start, zeroes them.
__shared__ unsigned long long vf_lab_sum[6], vf_lab_n[6], vf_lab_last;
__shared__ int vf_lab_prev;
__device__ unsigned long long vf_lab_cycles[6], vf_lab_count[6];
__device__ __forceinline__ void vf_lab_mark(int mark) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  unsigned long long now = clock64();
  if (mark == 6) {
    for (int i = 0; i < 6; i++) vf_lab_sum[i] = vf_lab_n[i] = 0;
    vf_lab_prev = -1;
    return;
  }
  const int before[6] = {3, 0, 1, 5, 2, 4};
  if (vf_lab_prev == before[mark]) {
    vf_lab_sum[mark] += now - vf_lab_last;
    vf_lab_n[mark]++;
    vf_lab_cycles[mark] = vf_lab_sum[mark];
    vf_lab_count[mark] = vf_lab_n[mark];
  }
  vf_lab_prev = mark;
  vf_lab_last = now;
}
#ifndef VF_LAB_NO_MARKS
#define VF_MARK(mark) vf_lab_mark(mark)
#endif

static void resetMarks() {
  unsigned long long zero[6] = {};
  cudaMemcpyToSymbol(vf_lab_cycles, zero, sizeof zero);
  cudaMemcpyToSymbol(vf_lab_count, zero, sizeof zero);
}

static std::string marks() {
  unsigned long long cycles[6], count[6];
  cudaMemcpyFromSymbol(cycles, vf_lab_cycles, sizeof cycles);
  cudaMemcpyFromSymbol(count, vf_lab_count, sizeof count);
  int khz = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  const char* names[6] = {"log", "decide", "work", "release", "sum", "arrive"};
  const int order[6] = {1, 2, 4, 5, 3, 0};
  std::string out;
  char b[96];
  double total = 0;
  for (int i : order) {
    double c = count[i] ? (double)cycles[i] / count[i] : 0.0;
    total += c;
    std::snprintf(b, sizeof b, " %s %.0f", names[i], c);
    out += b;
  }
  std::snprintf(b, sizeof b, " cycles (%.0f in all, %.0f ns at %d MHz; %llu levels)", total, total * 1e6 / khz, khz / 1000,
                count[1]);
  return out + b;
}

#include "../../vyre-cuda/src/main/resources/dev/vyre/cuda/frontier/decide.cu"
#include "../../vyre-cuda/src/main/resources/dev/vyre/cuda/frontier/frontier.cu"
#include "../../vyre-cuda/src/main/resources/dev/vyre/cuda/frontier/levels.cu"
#include "../../vyre-cuda/src/main/resources/dev/vyre/cuda/frontier/barrier.cu"
#include "../../vyre-cuda/src/main/resources/dev/vyre/cuda/frontier/entry.cu"
#include "../../vyre-cuda/src/main/resources/dev/vyre/cuda/frontier/afforest.cu"

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); std::exit(2); } } while (0)

static const char* NAMES[] = {"WarpSparse", "Sparse", "BlockDense", "Dense", "Hybrid", "Fused"};
// AfforestPhase.Step's names, by the VF_STEP_* ordinals.
static const char* STEPS[] = {"init", "link-neighbour", "compress", "sample", "link-rest", "final-compress"};
#define AFFOREST_PHASES 8

struct Csr {
  int n = 0;
  std::vector<long long> row;
  std::vector<int> col;
  long long m() const { return (long long)col.size(); }
};

// Counting sort by source, then each run sorted and deduplicated; self loops dropped.
static Csr build(int n, const std::vector<std::pair<int, int>>& edges, bool undirected) {
  std::vector<long long> count(n + 1, 0);
  for (auto [u, v] : edges) if (u != v) { count[u]++; if (undirected) count[v]++; }
  std::vector<long long> start(n + 1, 0);
  for (int v = 0; v < n; v++) start[v + 1] = start[v] + count[v];
  std::vector<int> loose(start[n]);
  std::vector<long long> cursor(start.begin(), start.end() - 1);
  for (auto [u, v] : edges) if (u != v) { loose[cursor[u]++] = v; if (undirected) loose[cursor[v]++] = u; }
  std::vector<long long> unique(n, 0);
#pragma omp parallel for schedule(dynamic, 4096)
  for (int v = 0; v < n; v++) {
    auto b = loose.begin() + start[v], e = loose.begin() + start[v + 1];
    std::sort(b, e);
    unique[v] = std::unique(b, e) - b;
  }
  Csr g;
  g.n = n;
  g.row.assign(n + 1, 0);
  for (int v = 0; v < n; v++) g.row[v + 1] = g.row[v] + unique[v];
  g.col.resize(g.row[n]);
#pragma omp parallel for schedule(dynamic, 4096)
  for (int v = 0; v < n; v++) std::copy(loose.begin() + start[v], loose.begin() + start[v] + unique[v], g.col.begin() + g.row[v]);
  return g;
}

static unsigned long long splitmix(unsigned long long& s) {
  unsigned long long z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static Csr kronecker(int scale, int ef, unsigned long long seed) {
  long long m = (long long)ef << scale;
  std::vector<std::pair<int, int>> edges(m);
#pragma omp parallel for
  for (long long e = 0; e < m; e++) {
    unsigned long long s = seed * 0x100000001B3ull + e;
    int u = 0, v = 0;
    for (int level = 0; level < scale; level++) {
      double r = (splitmix(s) >> 11) * 0x1.0p-53;
      if (r >= 0.57) {
        if (r < 0.76) v |= 1 << level; else if (r < 0.95) u |= 1 << level; else { u |= 1 << level; v |= 1 << level; }
      }
    }
    edges[e] = {u, v};
  }
  return build(1 << scale, edges, true);
}

static Csr grid(int rows, int cols) {
  std::vector<std::pair<int, int>> edges;
  for (int r = 0; r < rows; r++) for (int c = 0; c < cols; c++) {
    if (c + 1 < cols) edges.push_back({r * cols + c, r * cols + c + 1});
    if (r + 1 < rows) edges.push_back({r * cols + c, (r + 1) * cols + c});
  }
  return build(rows * cols, edges, true);
}

static Csr randomGraph(int n, long long m, bool undirected, unsigned long long seed) {
  std::vector<std::pair<int, int>> edges(m);
  for (long long e = 0; e < m; e++) edges[e] = {(int)(splitmix(seed) % n), (int)(splitmix(seed) % n)};
  // A hub above 32 neighbours, so that Hybrid's warp path runs.
  if (n > 100) for (int i = 1; i < 90; i++) edges.push_back({0, (int)(splitmix(seed) % n)});
  return build(n, edges, undirected);
}

// CudaFrontierGpuTest's graph: stars around 3000 (the largest), 9000 (a hub outside it) and 12000 (a
// warp's vertex outside it), a triangle 0-1-2 with a tail, isolated vertices between.
static Csr starsAndStrays() {
  std::vector<std::pair<int, int>> edges{{0, 1}, {1, 2}, {2, 0}, {2, 5}};
  for (int leaf = 4000; leaf < 9000; leaf++) edges.push_back({3000, leaf});
  for (int leaf = 9001; leaf < 11001; leaf++) edges.push_back({9000, leaf});
  for (int leaf = 12001; leaf < 12101; leaf++) edges.push_back({12000, leaf});
  return build(12200, edges, true);
}

static Csr transpose(const Csr& g) {
  std::vector<std::pair<int, int>> edges;
  for (int u = 0; u < g.n; u++) for (long long e = g.row[u]; e < g.row[u + 1]; e++) edges.push_back({g.col[e], u});
  return build(g.n, edges, false);
}

static std::vector<int> serialBfs(const Csr& g, int s) {
  std::vector<int> depth(g.n, -1), queue{s};
  depth[s] = 0;
  for (size_t i = 0; i < queue.size(); i++) {
    int u = queue[i];
    for (long long e = g.row[u]; e < g.row[u + 1]; e++) if (depth[g.col[e]] < 0) { depth[g.col[e]] = depth[u] + 1; queue.push_back(g.col[e]); }
  }
  return depth;
}

static std::vector<int> serialComponents(const Csr& g) {
  std::vector<int> parent(g.n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) { while (parent[x] != x) x = parent[x] = parent[parent[x]]; return x; };
  for (int u = 0; u < g.n; u++) for (long long e = g.row[u]; e < g.row[u + 1]; e++) {
    int a = find(u), b = find(g.col[e]);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<int> label(g.n);
  for (int v = 0; v < g.n; v++) label[v] = find(v);
  return label;
}

// What Afforest's deterministic phases count on g: {vertices, edges} of each of the AFFOREST_PHASES
// phases but link-rest's, whose count of the sampled root is racy (-1 there). The trees after the
// neighbour rounds are the components of the sampled edges, whatever order the links ran in.
static std::vector<std::pair<long long, long long>> serialAfforestCounts(const Csr& g) {
  std::vector<int> parent(g.n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) { while (parent[x] != x) x = parent[x] = parent[parent[x]]; return x; };
  std::vector<std::pair<long long, long long>> counts{{g.n, 0}};
  for (int r = 0; r < VF_NEIGHBOR_ROUNDS; r++) {
    long long linked = 0;
    for (int v = 0; v < g.n; v++) {
      if (g.row[v + 1] - g.row[v] <= r) continue;
      linked++;
      int a = find(v), b = find(g.col[g.row[v] + r]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    counts.push_back({linked, linked});
    counts.push_back({g.n, 0});
  }
  std::vector<int> sampled;
  for (int i = 0; g.n > 0 && i < VF_SAMPLES; i++) sampled.push_back(find(vf_sample_vertex(i, g.n)));
  std::sort(sampled.begin(), sampled.end());
  long long best = 0;
  for (size_t i = 0; i < sampled.size();) {
    size_t j = i;
    while (j < sampled.size() && sampled[j] == sampled[i]) j++;
    best = std::max(best, (long long)(j - i));
    i = j;
  }
  counts.push_back({best, 0});
  counts.push_back({-1, -1});
  counts.push_back({g.n, 0});
  return counts;
}

struct DeviceGraph { long long* row; int* col; long long* inRow; int* inCol; };

template <typename T> static T* upload(const std::vector<T>& host, bool mapped) {
  T* device;
  size_t bytes = std::max<size_t>(host.size() * sizeof(T), 16);
  if (mapped) {
    T* pinned;
    CK(cudaHostAlloc((void**)&pinned, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
    std::memcpy(pinned, host.data(), host.size() * sizeof(T));
    CK(cudaHostGetDevicePointer((void**)&device, pinned, 0));
  } else {
    CK(cudaMalloc(&device, bytes));
    CK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  return device;
}

static DeviceGraph uploadGraph(const Csr& out, const Csr* in, bool mapped) {
  DeviceGraph d{upload(out.row, mapped), upload(out.col, mapped), nullptr, nullptr};
  d.inRow = in ? upload(in->row, mapped) : d.row;
  d.inCol = in ? upload(in->col, mapped) : d.col;
  return d;
}

struct Result {
  std::vector<int> value, parent;
  std::vector<int> topologies;
  std::string detail;
  long long levels = 0;
  double nanos = 0, barrierNs = 0, edgeNs = 0, fusedEdgeNs = 0;
};

struct Engine {
  int block, grid, afforestGrid;
  int* value; int* parent; int* q0; int* q1; unsigned* bits; vf_u64* state; vf_u64* log; unsigned* decisions;
  bool tabled = true;  // whether runs pass the decision table
  long long capacity, logLevels = 65536;

  // Queues of n vertices, the hub list and the in-hubs (at most m / (VF_HUB_DEGREE + 1) each).
  Engine(long long n, long long m, int blockSize) : block(blockSize), capacity(n) {
    int perSm = 0, sms = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, vyre_frontier_run, block, 0));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    grid = perSm * sms;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, vyre_afforest_run, block, 0));
    afforestGrid = perSm * sms;
    long long words = ((n + 31) / 32 + 3) / 4 * 4;
    CK(cudaMalloc(&value, n * 4 + 16)); CK(cudaMalloc(&parent, n * 4 + 16));
    long long queueInts = n + 2 * (m / (VF_HUB_DEGREE + 1));
    CK(cudaMalloc(&q0, queueInts * 4 + 16)); CK(cudaMalloc(&q1, queueInts * 4 + 16));
    CK(cudaMalloc(&bits, 3 * words * 4 + 16));
    CK(cudaMalloc(&state, VF_STATE_WORDS * 8));
    CK(cudaMalloc(&log, logLevels * VF_LOG_WORDS * 8));
    CK(cudaMalloc(&decisions, VF_DECISION_PREVIOUS * VF_DECISION_EDGES));
  }

  VfParams params(const DeviceGraph& g, int n, long long m, int algorithm, int source, int forced) {
    VfParams p{};
    p.row = g.row; p.col = g.col; p.inRow = g.inRow; p.inCol = g.inCol;
    p.value = value; p.parent = parent; p.queue0 = q0; p.queue1 = q1; p.bitmaps = bits; p.state = state; p.log = log;
    p.n = n; p.m = m; p.words = ((n + 31) / 32 + 3) / 4 * 4;
    p.requiredBytes = 1; p.budgetBytes = 1ll << 40; p.readbackBytes = (algorithm == VF_BFS ? 8ll : 4ll) * n;
    p.fitting = 0x3F; p.forced = forced; p.algorithm = algorithm; p.source = source;
    p.logLevels = logLevels; p.probeEdges = 4ll << 20; p.calibrateOnly = 0;
    p.decisions = tabled ? decisions : nullptr;
    return p;
  }

  // Afforest's kernel as CudaFrontierEngine.afforest runs it: labels, the phases' counts and times.
  Result afforest(const DeviceGraph& g, int n, long long m, std::vector<std::pair<long long, long long>>* counts = nullptr) {
    VfParams p = params(g, n, m, VF_AFFOREST, 0, -1);
    p.logLevels = AFFOREST_PHASES;
    CK(cudaMemset(state, 0, VF_STATE_WORDS * 8));
    CK(cudaMemset(log, 0, AFFOREST_PHASES * VF_LOG_WORDS * 8));
    void* args[] = {&p};
    CK(cudaLaunchCooperativeKernel((void*)vyre_afforest_run, afforestGrid, block, args, 0, 0));
    CK(cudaDeviceSynchronize());
    std::vector<vf_u64> st(VF_STATE_WORDS), lg(AFFOREST_PHASES * VF_LOG_WORDS);
    CK(cudaMemcpy(st.data(), state, st.size() * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(lg.data(), log, lg.size() * 8, cudaMemcpyDeviceToHost));
    Result r;
    r.levels = st[VF_STATE_LEVELS];
    r.nanos = (double)(st[VF_STATE_T_END] - st[VF_STATE_T_START]);
    for (long long i = 0; i < r.levels; i++) {
      const vf_u64* e = &lg[i * VF_LOG_WORDS];
      if (counts) counts->push_back({(long long)e[2], (long long)e[3]});
      r.detail += std::string(" ") + STEPS[e[0]] + ((long long)e[1] >= 0 ? " " + std::to_string(e[1]) : "") + ":"
          + std::to_string(e[2]) + "v/" + std::to_string(e[3]) + "e/" + std::to_string(e[4] / 1000.0).substr(0, 6) + "us";
    }
    r.value.resize(n);
    CK(cudaMemcpy(r.value.data(), value, n * 4ll, cudaMemcpyDeviceToHost));
    return r;
  }

  // The persistent kernel, or (replay non-empty) the per-level baseline running those topologies.
  Result run(const DeviceGraph& g, int n, long long m, int algorithm, int source, int forced,
             const std::vector<int>* replay = nullptr) {
    VfParams p = params(g, n, m, algorithm, source, forced);
    Result r;
    if (replay) p.calibrateOnly = 1;
    CK(cudaMemset(state, 0, VF_STATE_WORDS * 8));
    void* args[] = {&p};
    CK(cudaLaunchCooperativeKernel((void*)vyre_frontier_run, grid, block, args, 0, 0));
    CK(cudaDeviceSynchronize());
    std::vector<vf_u64> st(VF_STATE_WORDS);
    if (replay) {
      auto t0 = std::chrono::steady_clock::now();
      for (int level = 0;; level++) {
        vf_u64 counters[6];
        CK(cudaMemcpy(counters, state, sizeof counters, cudaMemcpyDeviceToHost));
        if (counters[2 * (level % 3)] == 0) { r.levels = level; break; }
        // Components may take another number of levels (asynchronous propagation): Hybrid after the replay.
        int topology = level < (int)replay->size() ? (*replay)[level] : VF_HYBRID;
        vyre_frontier_level<<<topology == VF_FUSED ? 1 : grid, block>>>(p, level, topology);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
      }
      r.nanos = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    } else {
      CK(cudaMemcpy(st.data(), state, st.size() * 8, cudaMemcpyDeviceToHost));
      r.levels = st[VF_STATE_LEVELS];
      r.nanos = (double)(st[VF_STATE_T_END] - st[VF_STATE_T_START]);
      std::vector<vf_u64> lg(std::min(r.levels, logLevels) * VF_LOG_WORDS);
      CK(cudaMemcpy(lg.data(), log, lg.size() * 8, cudaMemcpyDeviceToHost));
      for (long long l = 0; l < std::min(r.levels, logLevels); l++) {
        r.topologies.push_back((int)lg[l * VF_LOG_WORDS + 2]);
        r.detail += " L" + std::to_string(l) + ":" + NAMES[lg[l * VF_LOG_WORDS + 2]] + "/" + std::to_string(lg[l * VF_LOG_WORDS])
            + "v/" + std::to_string(lg[l * VF_LOG_WORDS + 1]) + "e/" + std::to_string(lg[l * VF_LOG_WORDS + 6] / 1000) + "us";
      }
    }
    CK(cudaMemcpy(st.data(), state, st.size() * 8, cudaMemcpyDeviceToHost));
    std::memcpy(&r.barrierNs, &st[VF_STATE_BARRIER_NANOS], 8);
    std::memcpy(&r.edgeNs, &st[VF_STATE_EDGE_NANOS], 8);
    std::memcpy(&r.fusedEdgeNs, &st[VF_STATE_FUSED_EDGE_NANOS], 8);
    r.value.resize(n); r.parent.resize(n);
    CK(cudaMemcpy(r.value.data(), value, n * 4ll, cudaMemcpyDeviceToHost));
    if (algorithm == VF_BFS) CK(cudaMemcpy(r.parent.data(), parent, n * 4ll, cudaMemcpyDeviceToHost));
    return r;
  }
};

static int failures = 0;

static void expect(bool ok, const std::string& what) {
  if (!ok) { failures++; std::printf("FAIL %s\n", what.c_str()); }
}

// Graph500's rules: the source is its own parent, every other reached vertex's parent is one level
// up and an in-neighbour of it.
static bool validTree(const Csr& g, const Result& r, int source) {
  if (r.parent[source] != source) return false;
  for (int v = 0; v < g.n; v++) {
    if (v == source || r.value[v] < 0) { if (v != source && r.parent[v] != -1) return false; continue; }
    int u = r.parent[v];
    if (u < 0 || u >= g.n || r.value[u] != r.value[v] - 1) return false;
    if (!std::binary_search(g.col.begin() + g.row[u], g.col.begin() + g.row[u + 1], v)) return false;
  }
  return true;
}

static void checkGraph(const std::string& name, const Csr& g, bool directed, int block) {
  Csr in = directed ? transpose(g) : Csr{};
  Csr sym;
  if (directed) {
    std::vector<std::pair<int, int>> edges;
    for (int u = 0; u < g.n; u++) for (long long e = g.row[u]; e < g.row[u + 1]; e++) edges.push_back({u, g.col[e]});
    sym = build(g.n, edges, true);
  }
  const Csr& cg = directed ? sym : g;
  Engine engine(g.n, std::max(g.m(), cg.m()), block);
  for (bool mapped : {false, true}) {
    DeviceGraph d = uploadGraph(g, directed ? &in : nullptr, mapped);
    DeviceGraph dc = directed ? uploadGraph(sym, nullptr, mapped) : d;
    std::vector<int> sources{0, g.n / 2, g.n - 1};
    for (int forced = -1; forced < 6; forced++) {
      for (int s : sources) {
        Result r = engine.run(d, g.n, g.m(), VF_BFS, s, forced);
        std::string what = name + " bfs src " + std::to_string(s) + " " + (forced < 0 ? "auto" : NAMES[forced]) + (mapped ? " mapped" : "");
        expect(r.value == serialBfs(g, s), what + " depths");
        expect(validTree(g, r, s), what + " parents");
        if (forced == -1 && s == 0) {
          Result b = engine.run(d, g.n, g.m(), VF_BFS, s, forced, &r.topologies);
          expect(b.value == r.value, what + " per-level depths");
          expect(validTree(g, b, s), what + " per-level parents");
        }
      }
      Result c = engine.run(dc, cg.n, cg.m(), VF_COMPONENTS, 0, forced);
      expect(c.value == serialComponents(cg), name + " components " + (forced < 0 ? "auto" : NAMES[forced]) + (mapped ? " mapped" : ""));
      if (forced == -1) {
        Result b = engine.run(dc, cg.n, cg.m(), VF_COMPONENTS, 0, forced, &c.topologies);
        expect(b.value == c.value, name + " components per-level");
      }
    }
    std::vector<std::pair<long long, long long>> counts;
    Result a = engine.afforest(dc, cg.n, cg.m(), &counts);
    std::string what = name + " afforest" + (mapped ? " mapped" : "");
    expect(a.value == serialComponents(cg), what + " labels");
    auto expected = serialAfforestCounts(cg);
    expect(counts.size() == expected.size(), what + " phases");
    for (size_t i = 0; i < std::min(counts.size(), expected.size()); i++) {
      if (expected[i].first >= 0) expect(counts[i] == expected[i], what + " phase " + std::to_string(i) + " counts");
    }
  }
  std::printf("checked %-28s n=%d m=%lld%s\n", name.c_str(), g.n, g.m(), directed ? " directed" : "");
}

static std::string sequence(const std::vector<int>& t) {
  std::string s;
  for (size_t i = 0; i < t.size();) {
    size_t j = i;
    while (j < t.size() && t[j] == t[i]) j++;
    s += std::string(NAMES[t[i]]) + (j - i > 1 ? "x" + std::to_string(j - i) : "") + " ";
    i = j;
  }
  return s;
}

static void bench(int scale, int ef, int rows, int block) {
  auto t0 = std::chrono::steady_clock::now();
  Csr k = kronecker(scale, ef, 1);
  long long hubs = 0, maxDegree = 0;
  for (int v = 0; v < k.n; v++) {
    hubs += k.row[v + 1] - k.row[v] > VF_HUB_DEGREE;
    maxDegree = std::max(maxDegree, k.row[v + 1] - k.row[v]);
  }
  std::printf("kronecker scale %d ef %d: n=%d arcs=%lld, %lld hubs above %d, max degree %lld (built in %.1f s)\n", scale,
              ef, k.n, k.m(), hubs, VF_HUB_DEGREE, maxDegree,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  Engine engine(k.n, k.m(), block);
  std::printf("grid %d blocks x %d threads\n", engine.grid, block);
  DeviceGraph d = uploadGraph(k, nullptr, false);
  unsigned long long seed = 7;
  for (int forced : {-1, VF_HYBRID, VF_WARP_SPARSE, VF_DENSE}) {
    std::vector<double> teps;
    Result last;
    for (int i = 0; i < 8; i++) {
      int s;
      do { s = (int)(splitmix(seed) % k.n); } while (k.row[s + 1] == k.row[s]);
      Result r = engine.run(d, k.n, k.m(), VF_BFS, s, forced);
      if (i == 0) expect(r.value == serialBfs(k, s), "kronecker depths");
      long long arcs = 0;
      for (int v = 0; v < k.n; v++) if (r.value[v] >= 0) arcs += k.row[v + 1] - k.row[v];
      teps.push_back(arcs / 2 / r.nanos);
      last = r;
    }
    std::sort(teps.begin(), teps.end());
    std::printf("kronecker bfs %-10s GTEPS median %.1f min %.1f max %.1f | levels %lld, %.1f us, barrier %.0f ns, edge %.4f ns, fused edge %.4f ns |%s\n",
                forced < 0 ? "auto" : NAMES[forced], teps[4], teps[0], teps[7], last.levels, last.nanos / 1e3, last.barrierNs,
                last.edgeNs, last.fusedEdgeNs, last.detail.c_str());
    if (forced < 0) {
      Result b = engine.run(d, k.n, k.m(), VF_BFS, 0, -1);
      Result pl = engine.run(d, k.n, k.m(), VF_BFS, 0, -1, &b.topologies);
      std::printf("kronecker bfs src 0: device levels %.1f us, per-level launches %.1f us (%lld levels)\n", b.nanos / 1e3,
                  pl.nanos / 1e3, b.levels);
      Result c = engine.run(d, k.n, k.m(), VF_COMPONENTS, 0, -1);
      std::printf("kronecker label propagation: %lld levels, %.1f us |%s\n", c.levels, c.nanos / 1e3, c.detail.c_str());
      std::vector<int> labels = serialComponents(k);
      expect(c.value == labels, "kronecker label propagation");
      std::vector<double> times;
      Result a;
      for (int i = 0; i < 9; i++) {
        a = engine.afforest(d, k.n, k.m());
        if (i == 0) expect(a.value == labels, "kronecker afforest");
        times.push_back(a.nanos);
      }
      std::sort(times.begin(), times.end());
      std::printf("kronecker afforest (grid %d x %d): median %.1f us (min %.1f, max %.1f) over 9 runs, %.1fx label propagation |%s\n",
                  engine.afforestGrid, block, times[4] / 1e3, times[0] / 1e3, times[8] / 1e3, c.nanos / times[4],
                  a.detail.c_str());
    }
  }
  Csr gr = grid(rows, rows);
  Engine ge(gr.n, gr.m(), block);
  DeviceGraph dg = uploadGraph(gr, nullptr, false);
  Result ga = ge.afforest(dg, gr.n, gr.m());
  expect(ga.value == serialComponents(gr), "grid afforest");
  std::printf("grid %dx%d afforest: %.1f us |%s\n", rows, rows, ga.nanos / 1e3, ga.detail.c_str());
  for (int forced : {-1, VF_HYBRID, VF_SPARSE, VF_FUSED}) {
    Result r = ge.run(dg, gr.n, gr.m(), VF_BFS, 0, forced);
    if (forced == -1) expect(r.value == serialBfs(gr, 0), "grid depths");
    std::printf("grid %dx%d bfs %-10s %lld levels, %.1f us, %.3f us a level | barrier %.0f ns, edge %.4f ns, fused edge %.4f ns | %s\n",
                rows, rows, forced < 0 ? "auto" : NAMES[forced], r.levels, r.nanos / 1e3, r.nanos / 1e3 / r.levels, r.barrierNs,
                r.edgeNs, r.fusedEdgeNs, sequence(r.topologies).substr(0, 200).c_str());
    if (forced == -1) {
      Result pl = ge.run(dg, gr.n, gr.m(), VF_BFS, 0, -1, &r.topologies);
      std::printf("grid per-level launches: %.1f us, %.3f us a level\n", pl.nanos / 1e3, pl.nanos / 1e3 / pl.levels);
    }
  }
}

__global__ void cgBarriers(int rounds, unsigned long long* out) {
  auto g = cooperative_groups::this_grid();
  vf_u64 t0 = vf_now();
  for (int i = 0; i < rounds; i++) g.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = vf_now() - t0;
}

__global__ void ownBarriers(int rounds, VfParams p, unsigned long long* out) {
  __shared__ VfShared sh;
  vf_u64 t0 = vf_now();
  for (int i = 0; i < rounds; i++) vf_grid_barrier(p, sh);
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = vf_now() - t0;
}

// One thread taking `rounds` decisions in a chain (each one's answer feeds the next's input).
__global__ void decisionChain(int rounds, unsigned long long* out) {
  VfPolicy policy = vf_policy(1 << 22, 1 << 24, 1 << 20, 1ll << 34, 1 << 25, 1500.0, 0.008, 0.2, 0x3F, -1);
  vf_u64 t0 = vf_now();
  int previous = VF_NO_TOPOLOGY;
  long long vertices = 2000;
  for (int i = 0; i < rounds; i++) {
    VfDecision d = vf_decide(policy, vertices + previous, 8000 + i, previous);
    previous = d.topology;
  }
  *out = (vf_now() - t0) * 1000 + previous;
}

static void barriers(int block) {
  int perSm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, vyre_frontier_run, block, 0));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  unsigned long long* out; unsigned long long ns;
  CK(cudaMalloc(&out, 8));
  decisionChain<<<1, 1>>>(1000, out);
  CK(cudaMemcpy(&ns, out, 8, cudaMemcpyDeviceToHost));
  std::printf("decision: %.0f ns each (one thread, chained)\n", (double)(ns / 1000) / 1000);
  int rounds = 20000;
  for (int grid : {sms, perSm * sms}) {
    for (int pass = 0; pass < 2; pass++) {
      void* a[] = {&rounds, &out};
      CK(cudaLaunchCooperativeKernel((void*)cgBarriers, grid, block, a, 0, 0));
      CK(cudaMemcpy(&ns, out, 8, cudaMemcpyDeviceToHost));
      double cg = (double)ns / rounds;
      vf_u64* state;
      CK(cudaMalloc(&state, VF_STATE_WORDS * 8));
      CK(cudaMemset(state, 0, VF_STATE_WORDS * 8));
      VfParams p{};
      p.state = state;
      void* b[] = {&rounds, &p, &out};
      CK(cudaLaunchCooperativeKernel((void*)ownBarriers, grid, block, b, 0, 0));
      CK(cudaMemcpy(&ns, out, 8, cudaMemcpyDeviceToHost));
      std::printf("barrier grid %d x %d: grid.sync %.0f ns, vf_grid_barrier %.0f ns\n", grid, block, cg, (double)ns / rounds);
    }
  }
}

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "check";
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  if (mode == "barrier") { barriers(argc > 2 ? atoi(argv[2]) : 1024); return 0; }
  if (mode == "kbfs") {
    int block = argc > 4 ? atoi(argv[4]) : 1024;
    Csr k = kronecker(atoi(argv[2]), atoi(argv[3]), 1);
    Engine engine(k.n, k.m(), block);
    DeviceGraph d = uploadGraph(k, nullptr, false);
    unsigned long long seed = 7;
    std::vector<double> teps;
    double inverse = 0;
    for (int i = 0; i < 16; i++) {
      int s;
      do { s = (int)(splitmix(seed) % k.n); } while (k.row[s + 1] == k.row[s]);
      Result r = engine.run(d, k.n, k.m(), VF_BFS, s, -1);
      if (i < 2) expect(r.value == serialBfs(k, s), "kronecker depths");
      long long arcs = 0;
      for (int v = 0; v < k.n; v++) if (r.value[v] >= 0) arcs += k.row[v + 1] - k.row[v];
      teps.push_back(arcs / 2 / r.nanos);
      inverse += 1.0 / teps.back();
      if (i < 3) std::printf("  src %d: %.1f GTEPS |%s\n", s, teps.back(), r.detail.c_str());
    }
    std::sort(teps.begin(), teps.end());
    Result c = engine.run(d, k.n, k.m(), VF_COMPONENTS, 0, -1);
    std::printf("kbfs: harmonic mean %.1f GTEPS, median %.1f, min %.1f, max %.1f; label propagation %.1f us; %d failures\n",
                16 / inverse, teps[8], teps[0], teps[15], c.nanos / 1e3, failures);
    return failures == 0 ? 0 : 1;
  }
  if (mode == "grid") {
    int rows = atoi(argv[2]), block = argc > 3 ? atoi(argv[3]) : 1024;
    Csr gr = grid(rows, rows);
    Engine ge(gr.n, gr.m(), block);
    DeviceGraph dg = uploadGraph(gr, nullptr, false);
    for (int pass = 0; pass < 6; pass++) {
      ge.tabled = pass % 2 == 0;
      resetMarks();
      Result r = ge.run(dg, gr.n, gr.m(), VF_BFS, 0, -1);
      std::printf("grid phases of a level (block 0, decision table %s):%s\n", ge.tabled ? "on" : "off", marks().c_str());
      if (pass < 2) expect(r.value == serialBfs(gr, 0), "grid depths");
      Result pl = ge.run(dg, gr.n, gr.m(), VF_BFS, 0, -1, &r.topologies);
      std::printf("grid %dx%d: %lld levels, %.3f us a level on the device (barrier %.0f ns), %.3f us launched per level: %.2fx | %s\n",
                  rows, rows, r.levels, r.nanos / 1e3 / r.levels, r.barrierNs, pl.nanos / 1e3 / pl.levels, pl.nanos / r.nanos,
                  sequence(r.topologies).substr(0, 120).c_str());
    }
    return failures == 0 ? 0 : 1;
  }
  if (mode == "levels") {
    int block = argc > 4 ? atoi(argv[4]) : 1024;
    Csr k = kronecker(atoi(argv[2]), atoi(argv[3]), 1);
    Engine engine(k.n, k.m(), block);
    DeviceGraph d = uploadGraph(k, nullptr, false);
    Result b = engine.run(d, k.n, k.m(), VF_BFS, 0, -1);
    Result pl = engine.run(d, k.n, k.m(), VF_BFS, 0, -1, &b.topologies);
    std::printf("device levels %.1f us |%s\nper-level launches %.1f us\n", b.nanos / 1e3, b.detail.c_str(), pl.nanos / 1e3);
    return 0;
  }
  if (mode == "bench") {
    bench(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), argc > 5 ? atoi(argv[5]) : 1024);
  } else {
    int block = argc > 2 ? atoi(argv[2]) : 1024;
    bool small = mode == "small";
    checkGraph("kronecker 10/8", kronecker(10, 8, 3), false, block);
    if (!small) {
      checkGraph("kronecker 13/16", kronecker(13, 16, 5), false, block);
      checkGraph("grid 50x70", grid(50, 70), false, block);
      checkGraph("random directed 4000/9", randomGraph(4000, 36000, false, 11), true, block);
      checkGraph("random directed sparse 3000", randomGraph(3000, 2500, false, 13), true, block);
      checkGraph("random undirected 5000", randomGraph(5000, 4000, true, 17), false, block);
      checkGraph("no edges 100", build(100, {}, true), false, block);
      checkGraph("one vertex", build(1, {}, true), false, block);
      checkGraph("path 40", grid(1, 40), false, block);
      checkGraph("stars and strays", starsAndStrays(), false, block);
    }
  }
  std::printf("%s: %d failures\n", mode.c_str(), failures);
  return failures == 0 ? 0 : 1;
}

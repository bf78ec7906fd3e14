// Cluster lab: how fast can BFS levels advance inside one thread block cluster (Hopper), with the
// cluster's hardware barrier between levels and the level's counters in distributed shared memory,
// against one block alone (what FusedWave runs today) and the grid-wide level of frontier_lab.
// Each level: a lane per queue entry, its edges claimed by compare-and-set, new vertices appended
// with one warp-aggregated atomic on rank 0's shared counter, their degrees summed for the next
// level's decision, which every thread then looks up in a table in global memory (as the product's
// decision table), so that a level pays what a fused product level would.
//   build: nvcc -O3 -arch=sm_90 -std=c++17 scripts/kernel-lab/cluster_lab.cu -o cluster_lab
//   run:   cluster_lab ROWS [CLUSTER...]     a ROWS x ROWS grid from a corner, each cluster size given, with 1, 4
//                                            and 32 lanes a vertex
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                    \
    }                                                                                  \
  } while (0)

constexpr unsigned FULL = 0xffffffffu;

__device__ __forceinline__ unsigned long long nowNs() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// depth[] holds -1 for unvisited and depth[source] = 0 on entry; q0[0] = source. G lanes share a vertex,
// each taking every G-th of its edges (G = 1: a lane walks a vertex's edges alone).
template <int G>
__global__ void clusterBfs(const long long* __restrict__ row, const int* __restrict__ col, int* depth, int* parent,
                           int* q0, int* q1, int* q2, const unsigned char* __restrict__ table, int source,
                           long long* levelsOut, unsigned long long* nanosOut) {
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ unsigned long long counts[3], edges[3];
  unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0) {
    for (int i = 0; i < 3; i++) counts[i] = edges[i] = 0ull;
    if (rank == 0) {
      counts[0] = 1ull;
      edges[0] = (unsigned long long)(row[source + 1] - row[source]);
    }
  }
  cluster.sync();
  unsigned long long* counts0 = cluster.map_shared_rank(counts, 0);
  unsigned long long* edges0 = cluster.map_shared_rank(edges, 0);
  long long threads = (long long)cluster.num_blocks() * blockDim.x;
  long long t = (long long)rank * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31u;
  unsigned long long start = nowNs();
  int* queues[3] = {q0, q1, q2};
  int level = 0;
  for (;; level++) {
    long long inCount = (long long)counts0[level % 3];
    unsigned long long inEdges = edges0[level % 3];
    if (inCount == 0) break;
    // The decision's lookup, as a fused product level would take it; the lab only keeps going.
    if (__ldg(table + (inEdges < 65536ull ? inEdges : 65535ull)) == 0xff) break;
    if (rank == 0 && threadIdx.x == 0) {
      counts[(level + 2) % 3] = 0ull;
      edges[(level + 2) % 3] = 0ull;
    }
    const int* in = queues[level % 3];
    int* out = queues[(level + 1) % 3];
    for (long long base = t - lane; base < inCount * G; base += threads) {
      long long i = (base + lane) / G;
      int k = (int)((base + lane) % G);
      bool valid = i < inCount;
      int u = valid ? __ldcg(in + i) : 0;
      long long b = valid ? __ldg(row + u) + k : 0;
      long long e = valid ? __ldg(row + u + 1) : 0;
      int most = __reduce_max_sync(FULL, (unsigned)(e > b ? (e - b + G - 1) / G : 0));
      for (int j = 0; j < most; j++) {
        long long at = b + (long long)j * G;
        int v = at < e ? __ldg(col + at) : -1;
        bool claimed = v >= 0 && __ldcg(depth + v) == -1 && atomicCAS(depth + v, -1, level + 1) == -1;
        long long degree = claimed ? __ldg(row + v + 1) - __ldg(row + v) : 0;
        unsigned ballot = __ballot_sync(FULL, claimed);
        if (ballot == 0u) continue;
        unsigned long long sum = __reduce_add_sync(FULL, (unsigned)degree);
        unsigned long long slot = 0ull;
        if (lane == __ffs(ballot) - 1) {
          slot = atomicAdd(counts0 + (level + 1) % 3, (unsigned long long)__popc(ballot));
          atomicAdd(edges0 + (level + 1) % 3, sum);
        }
        slot = __shfl_sync(FULL, slot, __ffs(ballot) - 1);
        if (claimed) {
          out[slot + __popc(ballot & ((1u << lane) - 1u))] = v;
          parent[v] = u;
        }
      }
    }
    cluster.sync();
  }
  if (rank == 0 && threadIdx.x == 0) {
    *levelsOut = level;
    *nanosOut = nowNs() - start;
  }
  cluster.sync();  // rank 0's shared memory stays until every block has stopped reading it
}

static std::vector<int> serialBfs(int n, const std::vector<long long>& row, const std::vector<int>& col, int s) {
  std::vector<int> depth(n, -1), queue{s};
  depth[s] = 0;
  for (size_t i = 0; i < queue.size(); i++) {
    int u = queue[i];
    for (long long e = row[u]; e < row[u + 1]; e++)
      if (depth[col[e]] < 0) { depth[col[e]] = depth[u] + 1; queue.push_back(col[e]); }
  }
  return depth;
}

int main(int argc, char** argv) {
  int rows = argc > 1 ? std::atoi(argv[1]) : 2048;
  std::vector<int> clusters;
  for (int i = 2; i < argc; i++) clusters.push_back(std::atoi(argv[i]));
  if (clusters.empty()) clusters = {1, 2, 4, 8, 16};
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  int n = rows * rows;
  std::vector<long long> row(n + 1, 0);
  std::vector<int> col;
  col.reserve(4ll * n);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < rows; c++) {  // neighbours in ascending id, as the product's CSR sorts them
      int v = r * rows + c;
      if (r > 0) col.push_back(v - rows);
      if (c > 0) col.push_back(v - 1);
      if (c + 1 < rows) col.push_back(v + 1);
      if (r + 1 < rows) col.push_back(v + rows);
      row[v + 1] = (long long)col.size();
    }
  std::vector<int> expected = serialBfs(n, row, col, 0);
  long long *dRow, *dLevels;
  int *dCol, *dDepth, *dParent, *dQ[3];
  unsigned char* dTable;
  unsigned long long* dNanos;
  CK(cudaMalloc(&dRow, sizeof(long long) * (n + 1)));
  CK(cudaMalloc(&dCol, sizeof(int) * col.size()));
  CK(cudaMalloc(&dDepth, sizeof(int) * n));
  CK(cudaMalloc(&dParent, sizeof(int) * n));
  for (auto& q : dQ) CK(cudaMalloc(&q, sizeof(int) * n));
  CK(cudaMalloc(&dTable, 65536));
  CK(cudaMemset(dTable, 5, 65536));
  CK(cudaMalloc(&dLevels, sizeof(long long)));
  CK(cudaMalloc(&dNanos, sizeof(unsigned long long)));
  CK(cudaMemcpy(dRow, row.data(), sizeof(long long) * (n + 1), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dCol, col.data(), sizeof(int) * col.size(), cudaMemcpyHostToDevice));
  CK(cudaFuncSetAttribute(clusterBfs<1>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(clusterBfs<4>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(clusterBfs<32>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  for (int pass = 0; pass < 6; pass++) {
    int lanes = pass % 3 == 0 ? 1 : pass % 3 == 1 ? 4 : 32;
    auto kernel = lanes == 1 ? clusterBfs<1> : lanes == 4 ? clusterBfs<4> : clusterBfs<32>;
    for (int size : clusters) {
      CK(cudaMemset(dDepth, 0xff, sizeof(int) * n));
      int zero = 0, source = 0;
      CK(cudaMemcpy(dDepth + source, &zero, sizeof(int), cudaMemcpyHostToDevice));
      CK(cudaMemcpy(dQ[0], &source, sizeof(int), cudaMemcpyHostToDevice));
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(size);
      config.blockDim = dim3(1024);
      cudaLaunchAttribute attribute[1];
      attribute[0].id = cudaLaunchAttributeClusterDimension;
      attribute[0].val.clusterDim.x = size;
      attribute[0].val.clusterDim.y = 1;
      attribute[0].val.clusterDim.z = 1;
      config.attrs = attribute;
      config.numAttrs = 1;
      int active = 0;
      cudaError_t occupancy = cudaOccupancyMaxActiveClusters(&active, kernel, &config);
      cudaError_t launched = cudaLaunchKernelEx(&config, kernel, (const long long*)dRow, (const int*)dCol, dDepth,
                                                dParent, dQ[0], dQ[1], dQ[2], (const unsigned char*)dTable, source,
                                                dLevels, dNanos);
      if (launched != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
        std::printf("cluster %d: launch failed: %s\n", size, cudaGetErrorString(cudaGetLastError()));
        continue;
      }
      long long levels;
      unsigned long long nanos;
      std::vector<int> depth(n);
      CK(cudaMemcpy(&levels, dLevels, sizeof levels, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(&nanos, dNanos, sizeof nanos, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(depth.data(), dDepth, sizeof(int) * n, cudaMemcpyDeviceToHost));
      std::printf("grid %dx%d, %2d lanes a vertex, cluster of %2d blocks x 1024 (max active clusters %d%s): %lld levels, %.3f us a level, depths %s\n",
                  rows, rows, lanes, size, active, occupancy == cudaSuccess ? "" : "?", levels, nanos / 1e3 / levels,
                  depth == expected ? "match" : "DIFFER");
    }
  }
  return 0;
}

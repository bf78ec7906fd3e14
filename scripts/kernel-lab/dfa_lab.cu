// DFA lab: the megakernel's DFA_STEP on a corpus in device memory, without the megakernel around it. Where does
// a resident scan's kernel time go: the scan loop itself, the step around it (resources, header check, the
// promotion record), or the persistent kernel that runs it (its registers, its claims)?
//   input: java -cp vyre-cli/target/vyre.jar scripts/kernel-lab/DfaLabInput.java DIR [LITERALS]
//   build: scripts/kernel-source.sh /tmp/mk.cu &&
//          nvcc -O3 -arch=sm_90 -std=c++17 -DMEGAKERNEL_SOURCE='"/tmp/mk.cu"' scripts/kernel-lab/dfa_lab.cu -o dfa_lab
//   run:   dfa_lab DIR [SIZE] [THREADS...]      SIZE in GiB (default 4), or in MiB with an m (16m: for compute-sanitizer)
// Each configuration counts the matches of SIZE bytes (the 64 MiB block of `vyre bench resident`, repeated) in
// tasks of 16 KiB, one a thread at a time as the megakernel's lanes take them, and prints GB/s and the count:
//   loop      vyre_dfa_scan_range over the table in global memory, called directly
//   step      vyre_dfa_step itself (the product's path: resources, header, promotion record), not promoted
//   copy      vyre_dfa_scan_range over the block's copy of the promoted table in shared memory
//   promoted  vyre_dfa_step with the table promoted (the block's copy loaded by the step, as in the product)
//   warm      the same with every block's copy loaded before the first task
//   copy96    copy, launched with the 96 KiB of dynamic shared memory a promoting megakernel has
//   warm59    warm, launched with only the shared memory the copy needs
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
#include MEGAKERNEL_SOURCE

#define LAB_CHECK(x)                                                                     \
  do {                                                                                   \
    cudaError_t e = (x);                                                                 \
    if (e != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s: %s (line %d)\n", #x, cudaGetErrorString(e), __LINE__); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

struct LabTasks {
  unsigned long long tasks, task_bytes, overlap;
  const unsigned char* corpus;
  const unsigned* table;
  unsigned classes, start;
  unsigned long long* count;
};

// The range task t reads (from `owned - overlap`) and the offset of its first owned byte in it.
__device__ __forceinline__ void lab_range(const LabTasks& l, unsigned long long t, unsigned long long* read,
                                          unsigned long long* len, unsigned long long* min_end) {
  unsigned long long owned = t * l.task_bytes;
  *read = owned > l.overlap ? owned - l.overlap : 0ull;
  *len = owned + l.task_bytes - *read;
  *min_end = owned - *read;
}

// Counts the matches of this thread's tasks with the cursor `start` (copied for each task), the scan loop called
// directly.
template <typename Cursor>
__device__ void lab_count(const LabTasks& l, const Cursor& start) {
  unsigned long long found = 0;
  for (unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; t < l.tasks;
       t += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long read, len, min_end;
    lab_range(l, t, &read, &len, &min_end);
    VyreDfaScan s = {l.table, l.corpus + read, nullptr, 0u, read, true, 0ull};
    Cursor cursor = start;
    vyre_dfa_scan_range<true>(s, cursor, 0, len, min_end);
    found += s.found;
  }
  if (found) atomicAdd(l.count, found);
}

extern "C" __global__ void __launch_bounds__(1024) lab_loop(LabTasks l) {
  lab_count(l, VyreDfaRows{l.table, l.classes, l.start * l.classes});
}

extern "C" __global__ void __launch_bounds__(1024) lab_copy(LabTasks l, const uint4* promoted, unsigned promoted_bytes) {
  unsigned char* copy = vyre_shared + VYRE_PROMOTED_COPY_HEADER_BYTES;
  for (unsigned i = threadIdx.x; i < promoted_bytes / 16u; i += blockDim.x) reinterpret_cast<uint4*>(copy)[i] = promoted[i];
  __syncthreads();
  const unsigned* head = reinterpret_cast<const unsigned*>(copy);
  unsigned states = head[2], classes = head[3];
  unsigned transitions = (VYRE_PROMOTED_DFA_ACCEPT_COUNTS_OFFSET + 2u * states + 15u) & ~15u;
  lab_count(l, VyreDfaCopy{copy + VYRE_PROMOTED_DFA_CLASS_MAP_OFFSET, reinterpret_cast<const unsigned short*>(copy + transitions),
                           reinterpret_cast<const unsigned short*>(copy + VYRE_PROMOTED_DFA_ACCEPT_COUNTS_OFFSET), classes,
                           l.start});
}

// Resource handles of the step's arguments.
#define LAB_CORPUS 1u
#define LAB_TABLE 2u
#define LAB_COUNTS 3u

extern "C" __global__ void __launch_bounds__(1024) lab_step(VyreKernelArgs a, LabTasks l, const uint4* preload,
                                                             unsigned preload_bytes) {
  vyre_promoted_copy_init();
  if (preload != nullptr) {  // the block's copy loaded before any task, as a warm block has it
    unsigned char* copy = vyre_shared + VYRE_PROMOTED_COPY_HEADER_BYTES;
    for (unsigned i = threadIdx.x; i < preload_bytes / 16u; i += blockDim.x) reinterpret_cast<uint4*>(copy)[i] = preload[i];
    __syncthreads();
    if (threadIdx.x == 0) reinterpret_cast<VyrePromotedCopy*>(vyre_shared)->status = VYRE_COPY_READY;
    __syncthreads();
  }
  for (unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; t < l.tasks;
       t += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long read, len, min_end;
    lab_range(l, t, &read, &len, &min_end);
    unsigned args[VYRE_SLOT_WORDS] = {};
    args[0] = LAB_CORPUS;
    args[1] = (unsigned)read;  // the corpus is at most 4 GiB: offsets fit a word, as the product's do
    args[2] = (unsigned)len;
    args[3] = LAB_TABLE;
    args[4] = l.start;
    args[5] = LAB_COUNTS;
    args[6] = 0u;
    args[7] = (unsigned)read;
    args[8] = (unsigned)(read >> 32);
    args[9] = (unsigned)min_end;
    args[VYRE_DFA_STEP_MODE_ARG] = VYRE_DFA_STEP_MODE_COUNT;
    if (vyre_dfa_step(a, args) != VYRE_STATUS_DONE) __trap();
  }
}

static std::vector<char> slurp(const std::string& path, bool required) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (required) {
      std::fprintf(stderr, "dfa_lab: no %s. Fix: write it with DfaLabInput.java\n", path.c_str());
      std::exit(2);
    }
    return {};
  }
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: dfa_lab DIR [SIZE] [THREADS...]\n");
    return 2;
  }
  std::string dir = argv[1];
  std::string size = argc > 2 ? argv[2] : "4";
  unsigned long long bytes = std::strtoull(size.c_str(), nullptr, 10) << (size.back() == 'm' ? 20 : 30), task_bytes = 16384;
  std::vector<int> threads_list;
  for (int i = 3; i < argc; i++) threads_list.push_back(std::atoi(argv[i]));
  if (threads_list.empty()) threads_list = {256, 512, 1024};
  std::vector<char> table = slurp(dir + "/table.bin", true), promoted = slurp(dir + "/promoted.bin", false),
                    block = slurp(dir + "/corpus.bin", true);
  unsigned header[16];
  std::memcpy(header, table.data(), sizeof header);
  cudaDeviceProp prop;
  LAB_CHECK(cudaGetDeviceProperties(&prop, 0));
  unsigned char* corpus;
  LAB_CHECK(cudaMalloc(&corpus, bytes + 16));
  for (unsigned long long at = 0; at < bytes; at += block.size()) {
    LAB_CHECK(cudaMemcpy(corpus + at, block.data(), std::min<unsigned long long>(block.size(), bytes - at), cudaMemcpyHostToDevice));
  }
  unsigned* dtable;
  LAB_CHECK(cudaMalloc(&dtable, table.size()));
  LAB_CHECK(cudaMemcpy(dtable, table.data(), table.size(), cudaMemcpyHostToDevice));
  uint4* dpromoted = nullptr;
  if (!promoted.empty()) {
    LAB_CHECK(cudaMalloc(&dpromoted, promoted.size()));
    LAB_CHECK(cudaMemcpy(dpromoted, promoted.data(), promoted.size(), cudaMemcpyHostToDevice));
  }
  // A MatchCountLayout resource of one counter; its counter is the count every configuration adds to.
  unsigned long long* counts;
  size_t count_bytes = (VYRE_MATCH_COUNT_HEADER_WORDS + VYRE_MATCH_COUNT_COUNTER_WORDS) * 4;
  LAB_CHECK(cudaMalloc(&counts, count_bytes));
  unsigned one = 1;
  VyreResource resources[4] = {{0, 0},
                               {(unsigned long long)corpus, bytes + 16},
                               {(unsigned long long)dtable, table.size()},
                               {(unsigned long long)counts, count_bytes}};
  VyreResource* dresources;
  LAB_CHECK(cudaMalloc(&dresources, sizeof resources));
  LAB_CHECK(cudaMemcpy(dresources, resources, sizeof resources, cudaMemcpyHostToDevice));
  VyreDeviceState* state;
  LAB_CHECK(cudaMalloc(&state, sizeof(VyreDeviceState)));
  VyreKernelArgs a = {};
  a.state = state;
  a.resources = dresources;
  a.resource_capacity = 4;
  LabTasks l = {bytes / task_bytes, task_bytes, 15ull, corpus, dtable, header[3], header[4],
                reinterpret_cast<unsigned long long*>(reinterpret_cast<unsigned*>(counts) + VYRE_MATCH_COUNT_HEADER_WORDS)};
  unsigned shared = VYRE_PROMOTED_COPY_HEADER_BYTES + (unsigned)promoted.size();
  LAB_CHECK(cudaFuncSetAttribute(lab_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024));
  LAB_CHECK(cudaFuncSetAttribute(lab_step, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024));
  std::printf("dfa_lab: %s, %d SMs; %u states x %u classes; %llu bytes in %llu tasks of %llu bytes\n", prop.name,
              prop.multiProcessorCount, header[2], header[3], bytes, l.tasks, task_bytes);
  cudaEvent_t e0, e1;
  LAB_CHECK(cudaEventCreate(&e0));
  LAB_CHECK(cudaEventCreate(&e1));
  for (int round = 0; round < 2; round++) {
    for (int threads : threads_list) {
      for (int config = 0; config < 7; config++) {
        if (config >= 2 && promoted.empty()) continue;
        // The promotion record: promoted for `promoted`, empty otherwise (even sequence, handle + 1).
        VyreDeviceState s = {};
        if (config == 3 || config == 4 || config == 6) {
          s.promoted_handle = LAB_TABLE + 1u;
          s.promoted_table = (unsigned long long)dpromoted;
        }
        LAB_CHECK(cudaMemcpy(state, &s, sizeof s, cudaMemcpyHostToDevice));
        LAB_CHECK(cudaMemset(counts, 0, count_bytes));
        LAB_CHECK(cudaMemcpy(counts, &one, 4, cudaMemcpyHostToDevice));
        LAB_CHECK(cudaEventRecord(e0));
        const char* name = "";
        if (config == 0) {
          name = "loop";
          lab_loop<<<prop.multiProcessorCount, threads>>>(l);
        } else if (config == 1) {
          name = "step";
          lab_step<<<prop.multiProcessorCount, threads, 0>>>(a, l, nullptr, 0u);
        } else if (config == 2) {
          name = "copy";
          lab_copy<<<prop.multiProcessorCount, threads, shared>>>(l, dpromoted, (unsigned)promoted.size());
        } else if (config == 3) {
          name = "promoted";
          lab_step<<<prop.multiProcessorCount, threads, 96 * 1024>>>(a, l, nullptr, 0u);
        } else if (config == 4) {
          name = "warm";
          lab_step<<<prop.multiProcessorCount, threads, 96 * 1024>>>(a, l, dpromoted, (unsigned)promoted.size());
        } else if (config == 5) {
          name = "copy96";
          lab_copy<<<prop.multiProcessorCount, threads, 96 * 1024>>>(l, dpromoted, (unsigned)promoted.size());
        } else {
          name = "warm59";
          lab_step<<<prop.multiProcessorCount, threads, shared>>>(a, l, dpromoted, (unsigned)promoted.size());
        }
        LAB_CHECK(cudaEventRecord(e1));
        LAB_CHECK(cudaEventSynchronize(e1));
        LAB_CHECK(cudaGetLastError());
        float ms;
        LAB_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        unsigned long long found;
        LAB_CHECK(cudaMemcpy(&found, l.count, 8, cudaMemcpyDeviceToHost));
        VyreDeviceState after;
        LAB_CHECK(cudaMemcpy(&after, state, sizeof after, cudaMemcpyDeviceToHost));
        std::printf("round %d  %-8s %4d threads: %8.1f GB/s  %7.2f ms  %llu matches  %llu tasks promoted\n", round, name,
                    threads, bytes / (ms * 1e6), ms, found, (unsigned long long)after.promoted_tasks);
      }
    }
  }
  return 0;
}

// Kernel-only round-trip lab: the production megakernel (included below) driven by a C++ host
// that publishes exactly as Megakernel.java does (ring slot, express copy, doorbell), one task at
// a time, and spins on the slot's status. No JVM, so kernel variants can be compared in seconds,
// side by side, against the mapped-memory ping-pong floor measured in the same process.
//
// Build: scripts/kernel-lab/build.sh (nvcc here, sm_90); run on the GPU machine:
//   rt_lab <label> <samples> <opcode 0|1> [grid blocks] [worker_idle_ns] [host_delay_ns]
// host_mode (env RT_LAB_HOST): 0 = plain stores; 1 = as Megakernel.java publishes and retires
// (a full fence after the slot and its express copy, the doorbell read then CAS'd, a full fence
// after retiring); 2 = as 1 but the doorbell CAS'd without reading it first.
// host_flush (env RT_LAB_FLUSH): what the host does with the cache lines it just wrote (slot,
// express copy, doorbell) so that the device's next poll need not snoop them out of a core's
// cache: 0 nothing; 1 clflushopt; 2 clwb (what the JDK's Unsafe.writebackMemory emits where the
// CPU has it); 3 cldemote; 4 the slot and express copy written with non-temporal stores; each but
// 3 followed by an sfence. The floor's flag gets the same treatment.
// host_delay_ns: the host spins that long between seeing DONE and publishing the next task (not
// timed), as a slower host (the JVM's retire and publish) would: the kernel must not depend on
// when the next task arrives relative to its polls.
// Prints one line: label, p50/p99/min in us of the round trip and of the floor, and the trace.
#include "lab.cuh"
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <immintrin.h>

#include MEGAKERNEL_SOURCE
#ifndef VYRE_LAB_EXPRESS_COPIES
#define VYRE_LAB_EXPRESS_COPIES 1  // variants.py helper_copy2: the helper polls a copy of its own
#endif

extern "C" __global__ void lab_pingpong(volatile unsigned* h2d, volatile unsigned* d2h, unsigned n) {
  for (unsigned i = 1; i <= n; i++) {
    while (h2d[0] != i) {
    }
    d2h[0] = i;
    __threadfence_system();
  }
}


static inline long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static inline void compiler_barrier() { asm volatile("" ::: "memory"); }

// Pushes the line holding `p` out of this core's cache as RT_LAB_FLUSH says (see the top).
static inline void flush_line(int mode, const volatile void* p) {
  void* line = const_cast<void*>(p);
  if (mode == 1) _mm_clflushopt(line);
  if (mode == 2) _mm_clwb(line);
  if (mode == 3) _cldemote(line);
}
static inline void flush_fence(int mode) {
  if (mode == 1 || mode == 2 || mode == 4) _mm_sfence();
}

struct Percentiles {
  double p50, p99, min;
};
static Percentiles percentiles(std::vector<long long>& v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2] / 1e3, v[(size_t)(v.size() * 0.99)] / 1e3, v[0] / 1e3};
}

int main(int argc, char** argv) {
  const char* label = argc > 1 ? argv[1] : "base";
  int samples = argc > 2 ? atoi(argv[2]) : 20000;
  unsigned opcode = argc > 3 ? (unsigned)atoi(argv[3]) : 0u;
  int device_sms = 0;
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  CHECK(cudaDeviceGetAttribute(&device_sms, cudaDevAttrMultiProcessorCount, 0));
  int grid = argc > 4 && atoi(argv[4]) > 0 ? atoi(argv[4]) : device_sms;
  unsigned worker_idle = argc > 5 ? (unsigned)atoi(argv[5]) : 1000u;
  long long host_delay = argc > 6 ? atoll(argv[6]) : 0;
  int host_mode = getenv("RT_LAB_HOST") ? atoi(getenv("RT_LAB_HOST")) : 0;
  int host_flush = getenv("RT_LAB_FLUSH") ? atoi(getenv("RT_LAB_FLUSH")) : 0;
  unsigned scout_hot = 2000000u;

  const unsigned slots = 65536, control_words = 256;
  unsigned *control, *ring;
  uint4* express;
  CHECK(cudaHostAlloc(&control, control_words * 4, cudaHostAllocMapped | cudaHostAllocPortable));
  CHECK(cudaHostAlloc(&ring, (size_t)slots * 64, cudaHostAllocMapped | cudaHostAllocPortable));
  const size_t express_copy_bytes = (size_t)slots * 128;
  CHECK(cudaHostAlloc(&express, express_copy_bytes * VYRE_LAB_EXPRESS_COPIES, cudaHostAllocMapped | cudaHostAllocPortable));
  memset(control, 0, control_words * 4);
  memset(ring, 0, (size_t)slots * 64);
  memset(express, 0, express_copy_bytes * VYRE_LAB_EXPRESS_COPIES);
  control[VYRE_CTL_TENANT_BASE] = VYRE_CTL_TENANT_TABLE_START;
  control[VYRE_CTL_TENANT_TABLE_START] = 0xFFFFFFFFu;  // tenant 0 authorized
  const unsigned level = 2;                              // singlePriority(NORMAL), as bench dispatch
  unsigned offsets[6] = {0, 0, 0, slots, slots, slots};
  for (int p = 0; p < 6; p++) control[VYRE_CTL_PRIORITY_OFFSETS_BASE + p] = offsets[p];

  unsigned *dcontrol, *debug_log;
  VyreDeviceState* state;
  VyreResource* resources;
  CHECK(cudaMalloc(&dcontrol, control_words * 4));
  CHECK(cudaMemcpy(dcontrol, control, control_words * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&state, sizeof(VyreDeviceState)));
  CHECK(cudaMemset(state, 0, sizeof(VyreDeviceState)));
  CHECK(cudaMalloc(&debug_log, 4096 * 4));
  CHECK(cudaMemset(debug_log, 0, 4096 * 4));
  CHECK(cudaMalloc(&resources, 16 * 16));
  CHECK(cudaMemset(resources, 0, 16 * 16));

  VyreKernelArgs a;
  memset(&a, 0, sizeof a);
  CHECK(cudaHostGetDevicePointer((void**)&a.control, control, 0));
  a.dcontrol = dcontrol;
  a.control_words = control_words;
  CHECK(cudaHostGetDevicePointer((void**)&a.ring, ring, 0));
  a.slot_count = slots;
  a.debug_log = debug_log;
  a.debug_words = 4096;
  a.state = state;
  a.resources = resources;
  a.resource_capacity = 16;
  a.scout_idle_ns = 50000;
  a.worker_idle_ns = worker_idle;
  a.scout_hot_ns = scout_hot;
  CHECK(cudaHostGetDevicePointer((void**)&a.express, express, 0));

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  vyre_megakernel<<<grid, 256, 0, stream>>>(a);
  CHECK(cudaGetLastError());
  volatile unsigned* vcontrol = control;
  while (vcontrol[VYRE_CTL_KERNEL_STATE] != VYRE_KERNEL_STATE_RUNNING) {
  }

  int warmup = samples / 5 > 1000 ? samples / 5 : 1000;
  std::vector<long long> trips, publishes;
  trips.reserve(samples);
  publishes.reserve(samples);
  volatile unsigned long long* units = reinterpret_cast<volatile unsigned long long*>(express);
  for (int i = 0; i < warmup + samples; i++) {
    unsigned long long seq = (unsigned long long)i;
    unsigned slot = offsets[level] + (unsigned)(seq % slots);
    volatile unsigned* s = ring + (size_t)slot * 16;
    unsigned words[16] = {VYRE_STATUS_PUBLISHED, opcode, 0u, level, (unsigned)i, VYRE_CTL_OBSERVABLE_BASE};
    long long t0 = now_ns();
    unsigned long long stamp = (unsigned long long)((seq % 0xFFFFFFFFull) + 1ull) << 32;
    if (host_flush == 4) {
      for (int w = 1; w < 16; w++) _mm_stream_si32((int*)const_cast<unsigned*>(s) + w, (int)words[w]);
      _mm_stream_si32((int*)const_cast<unsigned*>(s), (int)words[0]);
      for (int w = 0; w < 16; w++) _mm_stream_si64((long long*)const_cast<unsigned long long*>(units) + (size_t)slot * 16 + w, (long long)(stamp | words[w]));
      _mm_sfence();  // non-temporal stores are weakly ordered: the slot and copy before the doorbell
    } else {
      for (int w = 0; w < 16; w++) s[w] = words[w];
      compiler_barrier();  // x86 keeps stores in order: the slot before its copy, the copy before the doorbell
      for (int c = 0; c < VYRE_LAB_EXPRESS_COPIES; c++) {
        for (int w = 0; w < 16; w++) units[(size_t)c * slots * 16 + (size_t)slot * 16 + w] = stamp | words[w];
      }
    }
    compiler_barrier();
    if (host_mode == 0) {
      vcontrol[VYRE_CTL_PUBLISH_SEQ_BASE + level] = (unsigned)(seq + 1);
    } else {
      __sync_synchronize();  // Java: RUN_END.setVolatile (a locked instruction drains the store buffer)
      unsigned* bell = control + VYRE_CTL_PUBLISH_SEQ_BASE + level;
      unsigned expected = host_mode == 1 ? vcontrol[VYRE_CTL_PUBLISH_SEQ_BASE + level] : (unsigned)seq;
      __sync_val_compare_and_swap(bell, expected, (unsigned)(seq + 1));
    }
    if (host_flush != 0 && host_flush != 4) {
      flush_line(host_flush, s);
      flush_line(host_flush, units + (size_t)slot * 16);
      flush_line(host_flush, units + (size_t)slot * 16 + 8);
      flush_line(host_flush, vcontrol + VYRE_CTL_PUBLISH_SEQ_BASE + level);
      flush_fence(host_flush);
    }
    long long t_pub = now_ns();
    while (s[0] != VYRE_STATUS_DONE) {
      if (s[0] == VYRE_STATUS_FAULT) {
        fprintf(stderr, "task %d faulted: reason %u\n", i, s[3]);
        return 3;
      }
    }
    long long t1 = now_ns();
    for (int c = 0; c < VYRE_LAB_EXPRESS_COPIES; c++) units[(size_t)c * slots * 16 + (size_t)slot * 16] = 0ull;  // retire: the copy can never be taken again
    if (host_mode != 0) __sync_synchronize();  // Java: the volatile store of `retired`
    if (i >= warmup) {
      trips.push_back(t1 - t0);
      publishes.push_back(t_pub - t0);
    }
    while (now_ns() - t1 < host_delay) {
    }
  }
  vcontrol[VYRE_CTL_SHUTDOWN] = 1u;
  CHECK(cudaStreamSynchronize(stream));
  // trace_seen, trace_stored, trace_sum[7], trace_count[3] (older kernels' traces are not read)
  unsigned long long trace[12] = {0};
  const size_t trace_bytes = sizeof(VyreDeviceState) - offsetof(VyreDeviceState, trace_seen);
  if (trace_bytes == sizeof trace) {
    CHECK(cudaMemcpy(trace, reinterpret_cast<char*>(state) + offsetof(VyreDeviceState, trace_seen), sizeof trace, cudaMemcpyDeviceToHost));
  }

  // The floor, in the same process: one thread ping-pongs a flag through mapped memory.
  unsigned* flags;
  CHECK(cudaHostAlloc(&flags, 256, cudaHostAllocMapped | cudaHostAllocPortable));
  memset(flags, 0, 256);
  unsigned* dflags;
  CHECK(cudaHostGetDevicePointer((void**)&dflags, flags, 0));
  volatile unsigned* h2d = flags;
  volatile unsigned* d2h = flags + 32;
  unsigned rounds = (unsigned)(warmup + samples);
  lab_pingpong<<<1, 1, 0, stream>>>(dflags, dflags + 32, rounds);
  CHECK(cudaGetLastError());
  std::vector<long long> floors;
  floors.reserve(samples);
  for (unsigned i = 1; i <= rounds; i++) {
    long long t0 = now_ns();
    h2d[0] = i;
    if (host_flush != 0 && host_flush != 4) {
      flush_line(host_flush, h2d);
      flush_fence(host_flush);
    }
    while (d2h[0] != i) {
    }
    long long t1 = now_ns();
    if ((int)i > warmup) floors.push_back(t1 - t0);
  }
  CHECK(cudaStreamSynchronize(stream));

  Percentiles rt = percentiles(trips), fl = percentiles(floors), pub = percentiles(publishes);
  printf("%-18s op=%u grid=%d widle=%u delay=%lld host=%d flush=%d  rt p50 %.2f p99 %.2f min %.2f publish %.2f | floor p50 %.2f p99 %.2f | ratio %.2fx",
         label, opcode, grid, worker_idle, host_delay, host_mode, host_flush, rt.p50, rt.p99, rt.min, pub.p50, fl.p50, fl.p99, rt.p50 / fl.p50);
  if (trace[9] > 0) {
    double n = (double)trace[9], polls = (double)trace[10];
    printf(" | trace tasks=%llu polls=%llu express=%llu seen>start %.2f run %.2f count %.2f store %.2f | poll period %.2f latency %.2f | stored>next poll %.2f",
           trace[9], trace[10], trace[11], trace[2] / n / 1e3, trace[3] / n / 1e3, trace[4] / n / 1e3, trace[5] / n / 1e3,
           trace[6] / polls / 1e3, trace[7] / polls / 1e3, trace[8] / n / 1e3);
  }
#ifdef VYRE_LAB_COUNTS
  unsigned long long counts[4];
  CHECK(cudaMemcpyFromSymbol(counts, vyre_lab_counts, sizeof counts));
  printf(" | torn polls %llu, slow path %llu, express by scout %llu, by helper %llu", counts[0], counts[1], counts[2], counts[3]);
#endif
  // The round trips' distribution: how many took longer than the median by 1, 2 or 3 us.
  double median = rt.p50 * 1e3;
  size_t over[3] = {0, 0, 0};
  for (long long t : trips) for (int k = 0; k < 3; k++) if (t > median + 1000.0 * (k + 1)) over[k]++;
  printf(" | over p50+1/2/3us %zu %zu %zu", over[0], over[1], over[2]);
  printf("\n");
  return 0;
}

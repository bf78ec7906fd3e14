// Poll-latency lab: how long one warp's read of host-mapped memory takes, issue to data, by the
// shape of the read and by what the warp (or another one) did just before. No host interaction:
// the kernel times `iters` dependent polls with %globaltimer and reports the mean per poll.
//
// Build: scripts/kernel-lab/build.sh (nvcc here, sm_90); run on the GPU machine: target/poll_lab [polls]
// Shapes: 1 = lane 0 reads 4 bytes; 2 = lanes 0..7 read 128 contiguous bytes (one load);
// 3 = the scout's poll (lanes 0..7 words 0..31, lanes 8..9 the doorbell quads, 8 lanes an
// express slot of 128 bytes: three loads, six 64-byte host lines); 4 = 32 lanes read 512 bytes.
// Before each poll, optionally: lane 0 stores to another host line (st.relaxed.sys), lane 0 adds
// to a device word (a fire-and-forget atomic), and another warp on another SM polls the same shape.
// Last, what a ring in device memory would cost the host per publish: a 128-byte host-to-device
// copy, synchronous and asynchronous then synchronized (the kernel could then poll L2, but the copy
// comes first).
#include "lab.cuh"
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>


__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ uint4 ldcv(const uint4* p) { return __ldcv(p); }

// One poll of `shape`; returns a value that depends on every load, reduced over the warp.
__device__ __forceinline__ unsigned poll(const uint4* host, unsigned lane, int shape, unsigned salt) {
  uint4 v = make_uint4(0, 0, 0, 0), w = v;
  if (shape == 1) {
    if (lane == 0) v.x = __ldcv(reinterpret_cast<const unsigned*>(host) + (salt & 1u));
  } else if (shape == 2) {
    if (lane < 8) v = ldcv(host + lane);
  } else if (shape == 3) {
    unsigned quad = lane == 8 ? 35u : lane == 9 ? 36u : (lane & 7u);
    v = ldcv(host + quad);
    if (lane >= 16 && lane < 24) w = ldcv(host + 1024 + (lane & 7u));
  } else {
    v = ldcv(host + lane);
  }
  unsigned r = v.x ^ v.y ^ v.z ^ v.w ^ w.x ^ w.y ^ w.z ^ w.w;
  return __reduce_xor_sync(0xFFFFFFFFu, r);
}

__global__ void poll_kernel(const uint4* host, unsigned* host_store, unsigned* dev, int shape, int store_before,
                            int atomic_before, int second, int iters, volatile unsigned* stop, unsigned long long* out) {
  unsigned lane = threadIdx.x & 31u;
  if (threadIdx.x >= 32) return;
  if (blockIdx.x == 1) {
    if (!second) return;
    unsigned sink = 0;
    while (!*stop) sink += poll(host, lane, shape, sink);
    if (sink == 0xFFFFFFFFu) out[2] = sink;
    return;
  }
  if (blockIdx.x != 0) return;
  unsigned sink = 0;
  unsigned long long t0 = now();
  for (int i = 0; i < iters; i++) {
    if (lane == 0 && store_before) asm volatile("st.relaxed.sys.global.u32 [%0], %1;" :: "l"(host_store), "r"((unsigned)i) : "memory");
    if (lane == 0 && atomic_before) atomicAdd(dev, 1u);
    sink += poll(host, lane, shape, sink);
  }
  unsigned long long t1 = now();
  if (lane == 0) {
    out[0] = t1 - t0;
    out[1] = sink;
    *stop = 1u;
  }
}

int main(int argc, char** argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 20000;
  uint4* host;
  CHECK(cudaHostAlloc(&host, 1 << 20, cudaHostAllocMapped | cudaHostAllocPortable));
  for (int i = 0; i < (1 << 18); i++) reinterpret_cast<unsigned*>(host)[i] = i;
  uint4* dhost;
  CHECK(cudaHostGetDevicePointer((void**)&dhost, host, 0));
  unsigned* dev;
  CHECK(cudaMalloc(&dev, 4096));
  unsigned long long* out;
  CHECK(cudaMallocManaged(&out, 64));
  unsigned* stop;
  CHECK(cudaMalloc(&stop, 4));
  unsigned* store_line = reinterpret_cast<unsigned*>(dhost + 4096);
  const char* names[] = {"", "1 lane 4 B", "8 lanes 128 B", "scout shape", "32 lanes 512 B"};
  printf("# poll_lab: mean ns per poll over %d polls\n", iters);
  for (int shape = 1; shape <= 4; shape++) {
    for (int variant = 0; variant < 4; variant++) {
      int store_before = variant == 1, atomic_before = variant == 2, second = variant == 3;
      CHECK(cudaMemset(stop, 0, 4));
      poll_kernel<<<2, 32>>>(dhost, store_line, dev, shape, store_before, atomic_before, second, iters / 10, stop, out);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemset(stop, 0, 4));
      poll_kernel<<<2, 32>>>(dhost, store_line, dev, shape, store_before, atomic_before, second, iters, stop, out);
      CHECK(cudaDeviceSynchronize());
      printf("%-16s %-22s %7.0f ns\n", names[shape],
             store_before ? "+ host store before" : atomic_before ? "+ device atomic before" : second ? "+ second poller (SM 1)" : "alone",
             (double)out[0] / iters);
    }
  }
  // The same reads of write-combined pinned memory (mapped for the GPU without snooping the host's
  // caches), alone.
  uint4 *wc_host, *dwc_host;
  CHECK(cudaHostAlloc(&wc_host, 1 << 20, cudaHostAllocMapped | cudaHostAllocPortable | cudaHostAllocWriteCombined));
  for (int i = 0; i < (1 << 18); i++) reinterpret_cast<unsigned*>(wc_host)[i] = i;
  CHECK(cudaHostGetDevicePointer((void**)&dwc_host, wc_host, 0));
  for (int shape = 1; shape <= 4; shape++) {
    for (int round = 0; round < 2; round++) {  // the first round warms up
      CHECK(cudaMemset(stop, 0, 4));
      int n = round ? iters : iters / 10;
      poll_kernel<<<2, 32>>>(dwc_host, store_line, dev, shape, 0, 0, 0, n, stop, out);
      CHECK(cudaDeviceSynchronize());
      if (round) printf("%-16s %-22s %7.0f ns\n", names[shape], "write-combined", (double)out[0] / n);
    }
  }
  // A 128-byte slot and its doorbell into device memory, as a device-memory ring would need per publish.
  unsigned* staging;
  CHECK(cudaHostAlloc(&staging, 128, cudaHostAllocDefault));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int copies = iters / 2;
  for (int mode = 0; mode < 2; mode++) {
    for (int round = 0; round < 2; round++) {  // the first round warms up
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < copies; i++) {
        staging[0] = (unsigned)i;
        if (mode == 0) {
          CHECK(cudaMemcpy(dev + 64, staging, 128, cudaMemcpyHostToDevice));
        } else {
          CHECK(cudaMemcpyAsync(dev + 64, staging, 128, cudaMemcpyHostToDevice, stream));
          CHECK(cudaStreamSynchronize(stream));
        }
      }
      double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / copies;
      if (round == 1) printf("%-16s %-22s %7.0f ns\n", "128 B to device", mode == 0 ? "cudaMemcpy" : "async + stream sync", ns);
    }
  }
  return 0;
}

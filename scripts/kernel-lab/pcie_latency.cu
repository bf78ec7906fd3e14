// How long one warp waits for reads of mapped host memory (uncached, as the scout polls), by
// shape: one word, one 128-byte line, several lines in one instruction, several instructions.
// Each figure is the mean over 2000 dependent rounds, in ns, measured on the device (globaltimer).
#include <cuda_runtime.h>
#include <cstdio>

// The timer read takes `after` as an input, so it cannot be scheduled before that value exists.
__device__ __forceinline__ unsigned long long gtimer(unsigned after) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t) : "r"(after) : "memory");
  return t;
}

// shape: 0 = lane 0, 4 bytes; 1 = 32 lanes x 4 bytes (one line); 2 = 8 lanes x 16 bytes (one line);
// 3 = 32 lanes x 16 bytes (four lines, one instruction); 4 = the scout's head (two lines, one
// instruction); 5 = head + one express line (two instructions); 6 = head + two express lines.
__global__ void probe(const uint4* host, unsigned shape, unsigned rounds, unsigned long long* out) {
  unsigned lane = threadIdx.x;
  unsigned acc = 0;
  unsigned long long total = 0;
  for (unsigned r = 0; r < rounds; r++) {
    unsigned salt = acc & 1u;  // a dependency on the previous round's data, always 0
    unsigned long long t0 = gtimer(salt);
    unsigned v = 0;
    const unsigned* words = reinterpret_cast<const unsigned*>(host);
    if (shape == 0) {
      if (lane == 0) v = __ldcv(words + salt);
    } else if (shape == 1) {
      v = __ldcv(words + lane + salt);
    } else if (shape == 2) {
      if (lane < 8) { uint4 q = __ldcv(host + lane + salt); v = q.x ^ q.w; }
    } else if (shape == 3) {
      uint4 q = __ldcv(host + lane + salt); v = q.x ^ q.w;
    } else {
      unsigned quad = lane == 8 ? 35 : lane == 9 ? 36 : (lane & 7);
      uint4 q = __ldcv(host + quad + salt);
      v = q.x ^ q.w;
      if (shape >= 5) { uint4 e = __ldcv(host + 64 + (lane & 7) + salt); v ^= e.y; }
      if (shape >= 6) { uint4 e = __ldcv(host + 128 + (lane & 7) + salt); v ^= e.y; }
    }
    v = __reduce_or_sync(0xFFFFFFFFu, v);
    unsigned long long t1 = gtimer(v);
    acc += v & 0u;
    total += t1 - t0;
    acc += (unsigned)(t1 & 0u);
  }
  if (lane == 0) out[shape] = total / rounds;
}

int main() {
  cudaSetDeviceFlags(cudaDeviceMapHost);
  uint4* host;
  cudaHostAlloc(&host, 1 << 16, cudaHostAllocMapped);
  uint4* dhost;
  cudaHostGetDevicePointer((void**)&dhost, host, 0);
  unsigned long long* out;
  cudaMallocManaged(&out, 8 * 8);
  const char* names[] = {"1 word", "1 line, 32x4B", "1 line, 8x16B", "4 lines, 1 instr", "scout head (2 lines)", "head + 1 express line", "head + 2 express lines"};
  for (int pass = 0; pass < 2; pass++) {
    for (unsigned shape = 0; shape < 7; shape++) {
      probe<<<1, 32>>>(dhost, shape, 2000, out);
      cudaDeviceSynchronize();
      if (pass == 1) printf("pcie read latency: %-24s %6llu ns\n", names[shape], out[shape]);
    }
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}

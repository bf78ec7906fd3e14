// Floor lab: the mapped-memory ping-pong floor itself, taken apart. Can several pollers, each on
// its own host line and out of step with each other, see a host write sooner than one poller can,
// and does a full 64-byte answer line reach the host sooner than a 4-byte one? If either does, the
// megakernel's round trip can go below what one stream of polls allows.
//
// Build: scripts/kernel-lab/build.sh; run on the GPU machine:
//   floor_lab <samples> "<pollers> <lines> <answer> <stagger_ns> <poll_bytes> <host_delay_ns>" ...
//   pollers     warps polling, one per SM (block);
//   lines       0 = every poller reads the same flag line, 1 = each its own copy (the host writes
//               one copy per poller, 256 bytes apart);
//   answer      0 = lane 0 stores 4 bytes, 1 = lanes 0..15 store the whole 64-byte answer line;
//               every poller answers into its own line, the host spins on all of them;
//   stagger_ns  after answering, poller j waits j * stagger_ns before it polls again, so that the
//               pollers' reads reach the host out of step (0: they go out together);
//   poll_bytes  4 = lane 0 reads the flag word, 128 = lanes 0..7 read 128 bytes (two lines, the
//               shape of an express copy; the host writes both lines of each copy);
//   host_delay  the host waits that long after seeing the answer before the next flag (untimed);
//   memory      (optional) 0 = flags and answers in ordinary pinned memory; 1 = the flags in
//               write-combined pinned memory (the GPU's reads of it are not snooped; the host ends
//               its writes with sfence, which WC stores need to leave the core); 2 = the answers
//               write-combined (the host's reads of them are uncached); 3 = both; 4 = ordinary
//               memory with the sfence of 1 (what the fence alone costs).
// Prints one line per configuration: round trip p50 / p99 / min and which poller answered first.
#include "lab.cuh"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <immintrin.h>

constexpr unsigned kCopyWords = 64;     // 256 bytes between flag copies
constexpr unsigned kAnswerWords = 32;   // 128 bytes between answer lines
constexpr unsigned kMaxPollers = 8;

__device__ __forceinline__ unsigned long long dev_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Block b's first warp polls copy (lines ? b : 0) until its first word reaches `round`, answers,
// then waits b * stagger before the next round's polls.
__global__ void floor_kernel(const unsigned* flags, unsigned* answers, unsigned rounds, int lines, int answer_line,
                             unsigned stagger_ns, int poll_bytes) {
  if (threadIdx.x >= 32) return;
  unsigned lane = threadIdx.x, poller = blockIdx.x;
  const uint4* copy = reinterpret_cast<const uint4*>(flags + (lines ? poller : 0u) * kCopyWords);
  unsigned* answer = answers + poller * kAnswerWords;
  for (unsigned round = 1; round <= rounds; round++) {
    unsigned seen;
    do {
      unsigned word = 0;
      if (poll_bytes == 4) {
        if (lane == 0) word = __ldcv(reinterpret_cast<const unsigned*>(copy));
      } else if (lane < 8) {
        uint4 v = __ldcv(copy + lane);
        word = v.x;  // lane 0's first word is the flag; the other lanes' loads go out with it
        if (lane != 0 && v.y == 0xFFFFFFFFu) word = 1;  // keep the loads (never true)
      }
      seen = __shfl_sync(0xFFFFFFFFu, word, 0);
    } while (seen < round);
    if (answer_line ? lane < 16 : lane == 0) {
      asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(answer + lane), "r"(seen) : "memory");
    }
    __threadfence_system();
    if (stagger_ns && poller) {
      unsigned long long until = dev_now() + (unsigned long long)poller * stagger_ns;
      while (dev_now() < until) {
      }
    }
    __syncwarp();
  }
}

static inline long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  int samples = argc > 1 ? atoi(argv[1]) : 20000;
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  unsigned *flag_mem[2], *answer_mem[2], *dflag_mem[2], *danswer_mem[2];
  for (int wc = 0; wc < 2; wc++) {
    unsigned kind = cudaHostAllocMapped | cudaHostAllocPortable | (wc ? cudaHostAllocWriteCombined : 0u);
    CHECK(cudaHostAlloc(&flag_mem[wc], kMaxPollers * kCopyWords * 4, kind));
    CHECK(cudaHostAlloc(&answer_mem[wc], kMaxPollers * kAnswerWords * 4, kind));
    CHECK(cudaHostGetDevicePointer((void**)&dflag_mem[wc], flag_mem[wc], 0));
    CHECK(cudaHostGetDevicePointer((void**)&danswer_mem[wc], answer_mem[wc], 0));
  }
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  printf("# floor_lab: %d round trips after %d warm-up ones per configuration\n", samples, samples / 5);
  for (int c = 2; c < argc; c++) {
    int pollers, lines, answer_line, poll_bytes;
    unsigned stagger;
    long long host_delay;
    int memory = 0;
    int fields = sscanf(argv[c], "%d %d %d %u %d %lld %d", &pollers, &lines, &answer_line, &stagger, &poll_bytes,
                        &host_delay, &memory);
    if (fields < 6 || pollers < 1 || pollers > (int)kMaxPollers || memory < 0 || memory > 4) {
      fprintf(stderr, "bad configuration '%s'\n", argv[c]);
      return 2;
    }
    unsigned* flags = flag_mem[memory & 1];
    unsigned* answers = answer_mem[(memory >> 1) & 1];
    unsigned* dflags = dflag_mem[memory & 1];
    unsigned* danswers = danswer_mem[(memory >> 1) & 1];
    bool fence = memory == 1 || memory == 3 || memory == 4;
    memset(flags, 0, kMaxPollers * kCopyWords * 4);
    memset(answers, 0, kMaxPollers * kAnswerWords * 4);
    volatile unsigned* vflags = flags;
    volatile unsigned* vanswers = answers;
    int warmup = samples / 5;
    unsigned rounds = (unsigned)(warmup + samples);
    floor_kernel<<<pollers, 32, 0, stream>>>(dflags, danswers, rounds, lines, answer_line, stagger, poll_bytes);
    CHECK(cudaGetLastError());
    int copies = lines ? pollers : 1;
    int copy_words = poll_bytes == 4 ? 1 : 32;
    std::vector<long long> trips;
    trips.reserve(samples);
    std::vector<int> first(pollers, 0);
    for (unsigned round = 1; round <= rounds; round++) {
      long long t0 = now_ns();
      for (int k = 0; k < copies; k++) {
        volatile unsigned* copy = vflags + k * kCopyWords;
        for (int w = copy_words - 1; w >= 0; w--) copy[w] = round;  // the flag word last
      }
      if (fence) _mm_sfence();
      int who = -1;
      while (who < 0) {
        for (int k = 0; k < pollers; k++) {
          if (vanswers[k * kAnswerWords] >= round) {
            who = k;
            break;
          }
        }
      }
      long long t1 = now_ns();
      if ((int)round > warmup) {
        trips.push_back(t1 - t0);
        first[who]++;
      }
      while (now_ns() - t1 < host_delay) {
      }
    }
    CHECK(cudaStreamSynchronize(stream));
    std::sort(trips.begin(), trips.end());
    static const char* kMemory[] = {"pinned", "wc-flags", "wc-answers", "wc-both", "pinned+sfence"};
    printf("%s pollers=%d lines=%s answer=%s stagger=%u poll=%dB delay=%lld  rt p50 %.2f p99 %.2f min %.2f  first:",
           kMemory[memory], pollers, lines ? "own" : "same", answer_line ? "64B" : "4B", stagger, poll_bytes, host_delay,
           trips[trips.size() / 2] / 1e3, trips[(size_t)(trips.size() * 0.99)] / 1e3, trips[0] / 1e3);
    for (int k = 0; k < pollers; k++) printf(" %d", first[k]);
    printf("\n");
    fflush(stdout);
  }
  return 0;
}

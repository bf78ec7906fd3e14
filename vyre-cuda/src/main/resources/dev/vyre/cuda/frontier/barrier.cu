// The frontier kernel's grid-wide barrier and clock. The kernel is launched cooperatively with every
// block co-resident, so a barrier on a word of device memory cannot deadlock.

__device__ __forceinline__ vf_u64 vf_now() {
  vf_u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

struct VfShared {
  vf_u64 scratch[32];
  long long inCount;
  long long hubCount;
  int topology;
  bool hybridPull;
  int keepGoing;
};

// The end of a grid-wide level: the block's new frontier edges added to `counter` with one atomic,
// then the barrier. The arrival word is kept as cooperative groups' grid sync keeps it (measured
// against grid.sync, it is as fast and needs no header in NVRTC): block 0 adds 0x80000000 - (blocks
// - 1), every other block 1, so the top bit flips exactly when the last block arrives and the low
// bits return to zero; each block waits for the flip from the value it saw, so back-to-back barriers
// need neither a reset nor a second word. The release on arrival and the acquire on the poll make
// every write of the level visible to every block after it. Until block 0 arrives, the low bits
// count the other blocks that have.
__device__ void vf_level_end(const VfParams& p, vf_u64 edges, vf_u64* counter, VfShared& sh) {
  vf_u64 total = vf_block_sum(edges, sh.scratch);
  VF_MARK(4);
  if (threadIdx.x == 0) {
    if (total != 0ull) atomicAdd(counter, total);
    unsigned* word = reinterpret_cast<unsigned*>(p.state + VF_STATE_BARRIER);
    unsigned seen = vf_add_release(word, blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u);
    VF_MARK(5);
    while (((seen ^ vf_load_acquire(word)) & 0x80000000u) == 0u) {
    }
  }
  __syncthreads();
}

__device__ void vf_grid_barrier(const VfParams& p, VfShared& sh) {
  vf_level_end(p, 0ull, p.state + VF_STATE_SINK, sh);
}

// The kernel's entry point: the scout (warp 0 of block 0), the express helpers (warp 0 of blocks
// 1..VYRE_EXPRESS_HELPERS) and the workers (every other warp), then the exit.

// The grid is one block of 256 threads per SM (CudaSession), so the compiler may give each
// thread up to 255 registers: with the default cap of 128 it spilled the scout's polls
// to local memory, and a spill store waits for the PCIe read it stores.
extern "C" __global__ void __launch_bounds__(256, 1) vyre_megakernel(VyreKernelArgs a) {
  unsigned lane = threadIdx.x & 31u;
  bool scout = blockIdx.x == 0 && threadIdx.x < 32u;
  VyreDeviceState* s = a.state;
  vyre_promoted_copy_init();
  if (blockIdx.x == 0 && threadIdx.x == 0) vyre_write(a, VYRE_CTL_KERNEL_STATE, VYRE_KERNEL_STATE_RUNNING);
  if (lane == 0) atomicAdd(&s->live_warps, 1u);
  unsigned offsets[VYRE_PRIORITY_LEVELS + 1];
  for (unsigned p = 0; p <= VYRE_PRIORITY_LEVELS; p++) offsets[p] = vyre_load_sys(a.control + VYRE_CTL_PRIORITY_OFFSETS_BASE + p);

  if (scout) {
    vyre_scout(a, lane, offsets);
  } else if (blockIdx.x >= 1u && blockIdx.x <= VYRE_EXPRESS_HELPERS && threadIdx.x < 32u) {
    vyre_express_helper(a, lane, offsets);
  } else {
    // An idle worker polls the wake line only (wake, abort, shutdown in one load, the queued
    // continuations and the active blocks in another of the same sector) and tries to claim when
    // the scout bumped `wake`, or while its last batch found work. A wake it misses costs parallelism, never a task: the scout runs batches itself while
    // work waits.
    unsigned sleep_ns = 0, seen_wake = 0;
    bool busy = true;
    while (true) {
      uint4 line = vyre_warp_view(reinterpret_cast<const uint4*>(&s->wake));
      if (line.y) __trap();  // abort: the host's last resort after a stall
      if (line.z) break;     // shutdown
      // The queued continuations and the active blocks, in the wake line's 32-byte sector. A block
      // the launch policy shed (docs/POLICY.md) claims nothing once its batch is done and sleeps
      // long: fewer warps polling the lines the scout and the busy workers use.
      uint2 queue = vyre_warp_pair(reinterpret_cast<const uint2*>(&s->continuations));
      if (queue.y != 0u && blockIdx.x >= queue.y) {
        busy = false;
        __nanosleep(8u * a.worker_idle_ns);
        continue;
      }
      if (busy || line.x != seen_wake) {
        seen_wake = line.x;
        busy = vyre_run_batch(a, lane, offsets, false);
        if (busy) {
          sleep_ns = 0;
          continue;
        }
      }
      // Continuations wait for idle workers; lane 0's count decides for the warp.
      if (queue.x != 0u && vyre_run_continuation(a, lane)) {
        sleep_ns = 0;
        continue;
      }
      sleep_ns = sleep_ns == 0 ? 32 : (sleep_ns * 2 > a.worker_idle_ns ? a.worker_idle_ns : sleep_ns * 2);
      __nanosleep(sleep_ns);
    }
  }
  __syncwarp();
  unsigned last = 0;
  if (lane == 0) last = atomicSub(&s->live_warps, 1u) == 1u;
  last = __shfl_sync(0xFFFFFFFFu, last, 0);
  // A warp stuck in a handler keeps live_warps above zero: the others linger, polling the abort
  // flag, so the host can still trap the whole grid instead of leaving it running forever.
  while (!last && vyre_load_gpu(&s->live_warps) != 0u) {
    if (vyre_load_gpu(&s->abort)) __trap();
    __nanosleep(10000);
  }
  if (last) {
    // The last warp out leaves an exact mirror behind, then says the kernel has exited.
    __threadfence();
    vyre_resync(a, lane, 32u);
    if (lane == 0) atomicExch(a.dcontrol + VYRE_CTL_KERNEL_STATE, VYRE_KERNEL_STATE_EXITED);
    __threadfence_system();
    if (lane == 0) vyre_store_sys(a.control + VYRE_CTL_KERNEL_STATE, VYRE_KERNEL_STATE_EXITED);
  }
}

// Same-run baselines for `vyre bench dispatch --backend cuda`: what a user would do instead of a
// persistent megakernel, and the physical floor of a host <-> device round trip.

// One task per launch: run slot `slot` of a ring in mapped host memory the way the megakernel
// would for a NOP (metric, DONE_COUNT, status DONE).
extern "C" __global__ void vyre_oneshot_nop(unsigned* control, unsigned* ring, unsigned slot) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  unsigned* s = ring + slot * 16u;
  if (*(volatile unsigned*)s != 1u) return;
  atomicAdd_system(control + 96u, 1u);
  atomicAdd_system(control + 1u, 1u);
  __threadfence_system();
  *(volatile unsigned*)s = 3u;
}

// The latency floor: the host writes a flag in mapped memory, one polling thread answers.
extern "C" __global__ void vyre_pingpong(volatile unsigned* h2d, volatile unsigned* d2h, unsigned n) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  for (unsigned i = 1; i <= n; i++) {
    while (h2d[0] != i) { }
    d2h[0] = i;
    __threadfence_system();
  }
}

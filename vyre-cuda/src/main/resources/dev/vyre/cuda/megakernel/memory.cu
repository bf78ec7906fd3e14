// vyre persistent megakernel: launched once, fed while it runs.
//
// Same semantics as dev.vyre.reference.ReferenceInterpreter (the parity suite checks it).
//
// Where things live, and why:
// - The ring is pinned host memory mapped into the device: the host writes slots at memory speed
//   and the device reads only the slots it claimed, then stores their final status there, so the
//   host sees completions without a copy or a synchronize.
// - The control block has two copies. The host-mapped one carries what the host writes (SHUTDOWN,
//   the tenant table, priority offsets, doorbells) and a mirror of everything else. The device
//   copy (`dcontrol`) is authoritative for every word the kernel changes, because atomics on
//   mapped host memory are not allowed without PCIe atomics (compute-sanitizer reports "Invalid
//   __global__ system-scoped atomic" on an H200 host) and would cross PCIe anyway. Each change is
//   also stored to the mirror; the scout re-syncs the mirror when work stops and at exit, so the
//   mirror is exact at rest, and the host takes exact snapshots with a device-to-host copy.
// - One scout warp polls the five doorbell words (control 141..145) over PCIe and mirrors them
//   into device memory; worker warps poll that mirror (an L2 hit), claim up to 32 tickets with one
//   atomicCAS on a device-memory cursor, and finish them in batches. Measured on an H200: a design
//   that polled every slot status over PCIe took 187 us per round trip.
// - The first task of each publish also has a stamped copy in the express lane (ExpressLayout),
//   which the scout reads with its poll and runs at once: one PCIe read per task instead of two.
//   An express helper warp (block 1) polls the same way on its own schedule, so that a task is
//   seen sooner whenever its host publishes it.
// - Warps that wait poll device memory only, each group on lines of its own (VyreDeviceState).
//
// Compiled at run time by NVRTC from one text that KernelSource assembles, in this order:
//   (generated)       the wire constants: VYRE_SLOT_WORDS, VYRE_CTL_*, VYRE_OP_*, ... (WireDefines,
//                     from the Java descriptors, so the host and the kernel cannot drift apart)
//   memory.cu         this file: the shared structures, memory access, the control block, resources
//   interpreter.cu    one slot's operation: built-in opcodes (DFA_STEP too), packed slots, tenants
//   claims.cu         claiming tickets, running a batch of slots, continuations (YIELD, REQUEUE)
//   express.cu        the express lane and the scout's poll
//   scout.cu          the scout and the express helper
//   entry.cu          the kernel: which warp does what, and the exit
//   io.cu             reads a task asks the host for
//   user_opcodes.cu   the user opcodes' bodies, spliced in by KernelSource
// Each part uses only what the parts before it define. No part defines a generated name.

// Continuations a kernel holds for idle workers; past that, a lane re-runs its own (backing off).
#define VYRE_CONTINUATION_CAPACITY 256u

#ifndef VYRE_EXPRESS_HELPERS
#define VYRE_EXPRESS_HELPERS 1u
#endif

// Result of one operation: a slot status (>= 0) or a negated fault reason.
typedef int vyre_result;

struct VyreResource {
  unsigned long long ptr;    // device-visible address; 0 = unused handle
  unsigned long long bytes;  // length; bit 63 set = pinned host memory mapped into the device
};
static_assert(sizeof(VyreResource) == VYRE_RESOURCE_ENTRY_BYTES, "VyreResource must match ResourceTableLayout.ENTRY_BYTES");

// Device-memory state shared by all warps; the host zeroes it before launch. Three 128-byte L2
// lines, by who touches them: a thousand idle warps polling a line queue in front of every atomic
// on it (measured with scripts/kernel-lab: the claim CAS and the counters of a one-task round trip
// took about 0.5 us longer while idle workers polled the claim line), so idle warps poll only the
// wake line, and the claim cursors live where only claims go.
struct VyreDeviceState {
  // Line 0: claims (CAS, atomicAdd) and the doorbell mirrors they compare with.
  unsigned long long claim[VYRE_PRIORITY_LEVELS];  // claim cursors (tickets claimed per level)
  unsigned doorbell[VYRE_PRIORITY_LEVELS];         // scout's mirror of control[141..145]
  unsigned line0_pad[17];
  // Line 1: what idle warps poll, one 16-byte load: nothing else changes here.
  unsigned wake;                                   // bumped by the scout when it leaves work for the workers
  unsigned abort;                                  // set by the host (device memset): every warp traps
  unsigned shutdown;                               // scout's mirror of control[0]
  unsigned hot;                                    // 1 while the scout polls without sleeping (the express helper polls too)
  unsigned continuations;                          // slots waiting in the continuation queue (idle workers take them)
  unsigned active_blocks;                          // set by the host: blocks at or past it claim nothing once idle (0: all claim)
  unsigned line1_pad[26];
  // Line 2: the tenant table's mirror and the warp count.
  unsigned tenant_base;                            // mirror of control[2]
  unsigned tenant_mask[VYRE_MAX_TENANTS];          // mirror of the mask table
  unsigned live_warps;                             // warps still in their loop
  unsigned line2_pad;
  // The continuation queue: slots whose handler finished YIELD or REQUEUE, taken again by idle
  // workers (a bounded multi-producer, multi-consumer ring; a cell's tag is 2 * lap while free for
  // that lap and 2 * lap + 1 once it holds a slot, so zeroed memory starts it empty).
  unsigned long long continuation_head, continuation_tail;
  unsigned continuation_ready;                     // continuations placed and not yet taken (a taker's first step)
  unsigned continuation_pad;
  unsigned continuation_tag[VYRE_CONTINUATION_CAPACITY];
  unsigned continuation_slot[VYRE_CONTINUATION_CAPACITY];
  // Each queued continuation's slot words as its last run left them: the worker that takes it runs
  // from these, not from the ring in host memory (a PCIe read, and a system-scope fence before
  // queueing so that the read would see the arguments), which made a task wait about 10 us between
  // a yield and its next run (ContinuationStressProbe tyield).
  unsigned continuation_words[VYRE_CONTINUATION_CAPACITY][VYRE_SLOT_WORDS];
  // Reads tasks ask for (io.cu): the bytes each tenant's reads have in flight, held to its read
  // quota, and the bytes each IO slot's read counts against its tenant.
  unsigned long long tenant_read_bytes[VYRE_MAX_TENANTS];
  unsigned io_slot_bytes[VYRE_IO_SLOTS];
  // The promoted DFA table (dfa.cu), written by the host while the kernel runs: the sequence is odd while it
  // rewrites the record, the handle the promoted table's resource handle + 1 (0: none, as zeroed memory
  // starts), the table the address of its compact copy in device memory.
  unsigned promoted_sequence;
  unsigned promoted_handle;
  unsigned long long promoted_table;
  unsigned long long promoted_tasks;               // DFA_STEP tasks scanned with a block's copy (the kernel counts)
  unsigned long long promoted_pad;
  // Built with -DVYRE_TRACE only (vyre.cuda.trace; TraceLayout): where a task's time goes on the
  // device, in globaltimer ns, summed over tasks: work seen -> claimed and slot in hand -> run ->
  // counters added -> status stored (a single task stores first: its `counted` includes the store);
  // and for the scout's hot polls: the period, the time from issue to data (PCIe), and from the last
  // status store to the next issue. Meaningful one task at a time.
  unsigned long long trace_seen;                   // when the scout last saw a doorbell change
  unsigned long long trace_stored;                 // when a status was last stored
  unsigned long long trace_sum[VYRE_TRACE_SUMS];   // indexed by VYRE_TRACE_SUM_*
  unsigned long long trace_count[VYRE_TRACE_COUNTS];  // indexed by VYRE_TRACE_COUNT_*
};
// The host allocates VYRE_DEVICE_STATE_BYTES, writes abort and active_blocks and reads the trace
// from VYRE_DEVICE_STATE_TRACE_OFFSET (DeviceStateLayout's offsets). NVRTC has no offsetof:
// the fields above are laid out without implicit padding, and the nvcc layout check compares them.
static_assert(sizeof(VyreDeviceState) == VYRE_DEVICE_STATE_BYTES, "VyreDeviceState must match DeviceStateLayout.BYTES");

struct VyreKernelArgs {
  unsigned* control;        // host-mapped: host-written words, and the mirror of the rest
  unsigned* dcontrol;       // device memory: authoritative for every word the kernel changes
  unsigned control_words;
  unsigned* ring;           // host-mapped
  unsigned slot_count;
  unsigned* debug_log;      // device memory (its cursor is atomic); copied out on request and at exit
  unsigned debug_words;
  VyreDeviceState* state;
  const VyreResource* resources;
  unsigned resource_capacity;
  unsigned scout_idle_ns;   // longest scout sleep while idle (bounds idle PCIe traffic and wake latency)
  unsigned worker_idle_ns;  // longest worker sleep while idle (device-memory polling only)
  unsigned scout_hot_ns;    // after the last doorbell change the scout polls without sleeping this long
  const uint4* express;     // host-mapped: ExpressLayout, VYRE_EXPRESS_LINES lines per ring slot
  unsigned* io_queue;       // host-mapped: IoQueueLayout, VYRE_IO_SLOTS request slots
  unsigned* io_owner;       // device memory: the owning task's tenant + 1 while it holds that IO slot (vyre_io_read .. vyre_io_release)
};
static_assert(sizeof(VyreKernelArgs) == VYRE_KERNEL_ARGS_BYTES, "VyreKernelArgs must match KernelArgsLayout.BYTES");

__device__ __forceinline__ unsigned vyre_load_sys(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void vyre_store_sys(unsigned* p, unsigned v) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

// A store with nothing to order before it: no system-scope fence (about a microsecond on PCIe).
__device__ __forceinline__ void vyre_store_sys_relaxed(unsigned* p, unsigned v) {
  asm volatile("st.relaxed.sys.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ unsigned vyre_load_gpu(const volatile unsigned* p) { return *p; }

// A line of shared state as lane 0 read it, the same in every lane. A warp's lanes that read
// such a word each for themselves can see it at different moments (they need not be converged:
// lane 0 alone runs a continuation), and a branch taken by some lanes and not others pairs their
// next __shfl_sync/__ballot_sync with different ones: garbage slot numbers, then
// CUDA_ERROR_ILLEGAL_ADDRESS (ContinuationStressProbe, cuda-gdb on the core dump). Every branch
// on shared state that a warp-wide operation follows is taken on one value for the warp.
__device__ __forceinline__ uint4 vyre_warp_view(const uint4* p) {
  __syncwarp();
  uint4 v = make_uint4(0u, 0u, 0u, 0u);
  if ((threadIdx.x & 31u) == 0u) v = __ldcv(p);
  v.x = __shfl_sync(0xFFFFFFFFu, v.x, 0);
  v.y = __shfl_sync(0xFFFFFFFFu, v.y, 0);
  v.z = __shfl_sync(0xFFFFFFFFu, v.z, 0);
  v.w = __shfl_sync(0xFFFFFFFFu, v.w, 0);
  return v;
}

// Two words as lane 0 read them, the same in every lane (see vyre_warp_view).
__device__ __forceinline__ uint2 vyre_warp_pair(const uint2* p) {
  __syncwarp();
  uint2 v = make_uint2(0u, 0u);
  if ((threadIdx.x & 31u) == 0u) v = __ldcv(p);
  v.x = __shfl_sync(0xFFFFFFFFu, v.x, 0);
  v.y = __shfl_sync(0xFFFFFFFFu, v.y, 0);
  return v;
}

__device__ __forceinline__ unsigned long long vyre_globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

// VYRE_TRACED(code): `code` in a build with -DVYRE_TRACE (the device trace), nothing otherwise, so
// that each timing point is one line where it is taken.
#ifdef VYRE_TRACE
#define VYRE_TRACED(...) __VA_ARGS__
#else
#define VYRE_TRACED(...)
#endif

// Words the host writes while the kernel runs; the kernel reads them from the mapped copy. From
// TENANT_BASE: the tenant table's pointer, its masks and the tenants' read quotas.
__device__ __forceinline__ bool vyre_host_owned(unsigned i) {
  return i == VYRE_CTL_SHUTDOWN || (i >= VYRE_CTL_TENANT_BASE && i < VYRE_CTL_TENANT_QUOTA_BASE + VYRE_MAX_TENANTS) ||
         (i >= VYRE_CTL_PRIORITY_OFFSETS_BASE && i < VYRE_CTL_PRIORITY_OFFSETS_BASE + 6u) ||
         (i >= VYRE_CTL_PUBLISH_SEQ_BASE && i < VYRE_CTL_PUBLISH_SEQ_BASE + VYRE_PRIORITY_LEVELS);
}

__device__ __forceinline__ unsigned vyre_read(const VyreKernelArgs& a, unsigned i) {
  return vyre_host_owned(i) ? vyre_load_sys(a.control + i) : vyre_load_gpu(a.dcontrol + i);
}

// The mirror store that follows every change of a device control word.
__device__ __forceinline__ void vyre_mirror(const VyreKernelArgs& a, unsigned i, unsigned value) {
  *(volatile unsigned*)(a.control + i) = value;
}

__device__ __forceinline__ unsigned vyre_add(const VyreKernelArgs& a, unsigned i, unsigned delta) {
  unsigned now = atomicAdd(a.dcontrol + i, delta) + delta;
  vyre_mirror(a, i, now);
  return now;
}

__device__ __forceinline__ void vyre_write(const VyreKernelArgs& a, unsigned i, unsigned value) {
  atomicExch(a.dcontrol + i, value);
  vyre_mirror(a, i, value);
}

// Copies every kernel-owned word of the device control block to the mirror (lanes stride it);
// the claim cursors (words 146..155) come from the device state, where the warps keep them.
__device__ void vyre_resync(const VyreKernelArgs& a, unsigned lane, unsigned lanes) {
  const volatile unsigned* claims = reinterpret_cast<const volatile unsigned*>(a.state->claim);
  for (unsigned i = lane; i < a.control_words; i += lanes) {
    if (i >= VYRE_CTL_CLAIM_SEQ_BASE && i < VYRE_CTL_CLAIM_SEQ_BASE + 2u * VYRE_PRIORITY_LEVELS) {
      vyre_mirror(a, i, claims[i - VYRE_CTL_CLAIM_SEQ_BASE]);
    } else if (!vyre_host_owned(i)) {
      vyre_mirror(a, i, vyre_load_gpu(a.dcontrol + i));
    }
  }
}

// True when [start, start + count) lies inside the control block.
__device__ __forceinline__ bool vyre_in_control(const VyreKernelArgs& a, unsigned start, unsigned long long count) {
  return (unsigned long long)start + count <= (unsigned long long)a.control_words;
}

// A task's acquire of what the host wrote before it published the task (docs/PROTOCOL.md, "What a task sees
// of the host's writes"): the slot came through uncached loads, which order nothing after them, and the SM's L1
// may still hold a line an earlier task read (a resource's table entry, a buffer's old bytes). On sm_70 and
// later the fence also invalidates the L1. Taken before a task reads host-written memory (user opcodes,
// DFA_STEP, wave gates), not by those that read none (NOP and the control-word ops), whose round trip it would
// lengthen.
__device__ __forceinline__ void vyre_acquire_host_writes() { __threadfence(); }

// The resource behind a handle, or null for a handle outside the table or unused.
__device__ __forceinline__ const VyreResource* vyre_resource(const VyreKernelArgs& a, unsigned handle) {
  if (handle >= a.resource_capacity || a.resources[handle].ptr == 0ull) return nullptr;
  return &a.resources[handle];
}

__device__ __forceinline__ unsigned long long vyre_resource_bytes(const VyreResource* r) {
  return r->bytes & ~VYRE_RESOURCE_HOST_MAPPED;
}

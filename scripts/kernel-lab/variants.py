#!/usr/bin/env python3
"""Writes experimental variants of the megakernel for rt_lab (never shipped): each is the production
source (as scripts/kernel-source.sh assembles it) with one named edit (or several, joined by '+'), so the lab measures one difference at a time.
Edits marked "attribution" are unsafe: they only show what a piece of the path costs."""
import pathlib, sys


def replace(text, old, new):
    if old not in text:
        sys.exit(f"variants.py: the source no longer contains: {old[:60]!r}")
    return text.replace(old, new, 1)


def cut(text, start, end):
    return text[:text.index(start)] + text[text.index(end):]


def no_cas(t):  # attribution: the express claim as a plain store
    t = replace(t, "if (lane == 0) previous = atomicCAS(&a.state->claim[level], ticket, ticket + 1ull);",
                "if (lane == 0) { *(volatile unsigned long long*)&a.state->claim[level] = ticket + 1ull; previous = ticket; }")
    return t


def no_counters(t):  # attribution
    return cut(t, "  bool metered = mine && fault", "  VYRE_TRACED(unsigned long long t_counted")


def _helpers(t, n):
    return "#define VYRE_EXPRESS_HELPERS " + str(n) + "u\n" + t


def no_helper(t):  # the scout polls alone
    return _helpers(t, 0)


def two_helpers(t):
    return _helpers(t, 2)


def three_helpers(t):
    return _helpers(t, 3)


def no_device_loads(t):  # attribution: the poll reads host memory only (abort, shutdown and claims not loaded)
    t = replace(t, "  p.aborted = vyre_load_gpu(&s->abort);\n  p.shutdown = vyre_load_gpu(&s->shutdown);\n"
                "  p.claims = lane < VYRE_PRIORITY_LEVELS ? *(volatile unsigned long long*)&s->claim[lane] : 0ull;",
                "  p.aborted = 0u;\n  p.shutdown = 0u;\n  p.claims = cursor;")
    return t


def no_claim_mirror(t):  # attribution: the claim cursors are not mirrored to the host after each poll
    return replace(t, "    *(volatile unsigned long long*)(a.control + VYRE_CTL_CLAIM_SEQ_BASE + 2 * lane) = sc.cursor;\n", "")


def one_control_line(t):  # attribution: control words 16..31 (tenants 13..28) not polled; the lab's tenant is 0
    return replace(t, "  p.head = __ldcv(reinterpret_cast<const uint4*>(a.control) + quad);",
                   "  p.head = lane == 8u || lane == 9u || (lane & 7u) < 4u ? __ldcv(reinterpret_cast<const uint4*>(a.control) + quad) : make_uint4(0u, 0u, 0u, 0u);")


def one_doorbell_line(t):  # attribution: the doorbells of levels 3 and 4 (words 144, 145) not polled; the lab's level is 2
    return replace(t, "  unsigned quad = lane == 8u ? bell_quad : lane == 9u ? bell_quad + 1u : (lane & 7u);",
                   "  unsigned quad = lane == 8u || lane == 9u ? bell_quad : (lane & 7u);")


def fence_after_express(t):  # the scout's next poll waits until an express task's status store is visible (as the floor's kernel fences)
    return replace(t, "  bool ran_express = vyre_poll_express(a, lane, p, sc.last_doorbell, known);\n",
                   "  bool ran_express = vyre_poll_express(a, lane, p, sc.last_doorbell, known);\n  if (ran_express) __threadfence_system();\n")


def helper_copy2(t):  # the helper polls a second express copy (the lab host writes both), not the scout's lines
    t = "#define VYRE_LAB_EXPRESS_COPIES (VYRE_EXPRESS_HELPERS + 1)\n" + t
    t = replace(t, "__device__ void vyre_express_helper(const VyreKernelArgs& a, unsigned lane, const unsigned* offsets) {\n",
                "__device__ void vyre_express_helper(const VyreKernelArgs& a_in, unsigned lane, const unsigned* offsets) {\n"
                "  VyreKernelArgs a = a_in;\n  a.express += (unsigned long long)a.slot_count * VYRE_EXPRESS_LINES * blockIdx.x;\n")
    return t


def helper_device_head(t):  # attribution (NOP only): as helper_copy2, and the helper reads control words from the device copy, so it polls no line the scout does
    if "VYRE_LAB_EXPRESS_COPIES" not in t:
        t = helper_copy2(t)
    t = replace(t, "  a.express += (unsigned long long)a.slot_count * VYRE_EXPRESS_LINES * blockIdx.x;\n",
                "  a.express += (unsigned long long)a.slot_count * VYRE_EXPRESS_LINES * blockIdx.x;\n  a.control = a.dcontrol;\n")
    return t


STORER = r"""
// Lab: a storer warp (warp 1 of the scout's and the helpers' blocks) issues relaxed status stores
// handed over through shared memory, so the polling warp's next poll never waits behind its own
// store to host memory.
struct VyreLabQueue { unsigned slot[32]; unsigned status[32]; volatile unsigned head, tail; };
__device__ __forceinline__ VyreLabQueue* vyre_lab_queue() { __shared__ VyreLabQueue q; return &q; }
__device__ __forceinline__ bool vyre_lab_handoff(unsigned slot, unsigned status) {
  if (blockIdx.x > VYRE_EXPRESS_HELPERS || threadIdx.x >= 32u) return false;
  VyreLabQueue* q = vyre_lab_queue();
  unsigned t = q->tail;
  if (t - q->head >= 32u) return false;
  q->slot[t & 31u] = slot;
  q->status[t & 31u] = status;
  __threadfence_block();
  q->tail = t + 1u;
  return true;
}
__device__ void vyre_lab_storer(const VyreKernelArgs& a) {
  VyreLabQueue* q = vyre_lab_queue();
  unsigned lane = threadIdx.x & 31u, spins = 0;
  while (true) {
    unsigned h = q->head;
    unsigned ready = __shfl_sync(0xFFFFFFFFu, lane == 0u ? q->tail != h : 0u, 0);
    if (ready) {
      if (lane == 0u) {
        __threadfence_block();
        vyre_store_sys_relaxed(a.ring + (unsigned long long)q->slot[h & 31u] * VYRE_SLOT_WORDS, q->status[h & 31u]);
        q->head = h + 1u;
      }
      __syncwarp();
      continue;
    }
    if ((++spins & 1023u) == 0u && vyre_load_gpu(&a.state->shutdown)) return;
  }
}
"""


def storer_warp(t):  # a storer warp stores single NOP statuses for the scout and the helper (lab: spins while idle)
    t = replace(t, "// Stores the statuses of the lanes in `ready`.", STORER + "\n// Stores the statuses of the lanes in `ready`.")
    t = replace(t, "    else vyre_store_sys_relaxed(status_word, status);",
                "    else if (__popc(__activemask()) != 1u || !vyre_lab_handoff(slot, status)) vyre_store_sys_relaxed(status_word, status);")
    t = replace(t, "  if (scout) {\n    vyre_scout(a, lane, offsets);",
                "  if (blockIdx.x <= VYRE_EXPRESS_HELPERS) {\n    if (threadIdx.x == 0u) { vyre_lab_queue()->head = 0u; vyre_lab_queue()->tail = 0u; }\n    __syncthreads();\n  }\n"
                "  if (scout) {\n    vyre_scout(a, lane, offsets);")
    t = replace(t, "  } else {\n    // An idle worker polls the wake line only",
                "  } else if (blockIdx.x <= VYRE_EXPRESS_HELPERS && threadIdx.x >= 32u && threadIdx.x < 64u) {\n    vyre_lab_storer(a);\n"
                "  } else {\n    // An idle worker polls the wake line only")
    return t


def lab_counts(t):  # counters read by rt_lab: torn express copies seen by a poll, slow-path entries, express tasks run by the scout / a helper
    t = "#define VYRE_LAB_COUNTS\n__device__ unsigned long long vyre_lab_counts[4];\n" + t
    t = replace(t, "  int express_level = -1;\n",
                "  {\n    unsigned bits = (stamped[0] >> (VYRE_EXPRESS_LINES * 2u)) & 0xFFu;\n"
                "    if (lane == 0 && bits != 0u && bits != 0xFFu) atomicAdd(&vyre_lab_counts[0], 1ull);\n  }\n"
                "  int express_level = -1;\n")
    t = replace(t, "  if (any && waiting) {\n", "  if (waiting && lane == 0) atomicAdd(&vyre_lab_counts[1], 1ull);\n  if (any && waiting) {\n")
    t = replace(t, "  if (lane == level && claimed > known) known = claimed;\n  return ran;",
                "  if (lane == level && claimed > known) known = claimed;\n  if (ran && lane == 0) atomicAdd(&vyre_lab_counts[blockIdx.x == 0 ? 2 : 3], 1ull);\n  return ran;")
    return t


def trace(t):  # the device trace (docs/PROTOCOL.md)
    return "#define VYRE_TRACE\n" + t


EDITS = {f.__name__: f for f in (no_cas, no_counters, no_helper, two_helpers, three_helpers, no_device_loads, no_claim_mirror, one_control_line, one_doorbell_line, fence_after_express, helper_copy2, helper_device_head, storer_warp, lab_counts, trace)}
# Built by default: base (and base_trace), each edit alone, and the scout alone with its trace.
NAMES = ["base"] + [name for name in EDITS if name != "trace"] + ["no_helper+trace", "one_control_line+one_doorbell_line",
                                                                  "one_control_line+one_doorbell_line+no_helper",
                                                                  "helper_copy2+trace", "two_helpers+helper_copy2", "two_helpers+helper_device_head", "no_counters+trace", "helper_device_head+trace", "storer_warp+trace", "storer_warp+no_helper", "lab_counts+no_helper"]


def variant(text, name):
    if name != "base":
        for edit in name.split("+"):
            text = EDITS[edit](text)
    return text


if __name__ == "__main__":
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    # The assembled kernel (scripts/kernel-source.sh); optional: the variants' name prefix, and which.
    base = pathlib.Path(sys.argv[2]).read_text()
    prefix = sys.argv[3] if len(sys.argv) > 3 else ""
    names = sys.argv[4].split(",") if len(sys.argv) > 4 else NAMES
    built = []
    for name in names:
        file = prefix + name.replace("+", "_")
        text = variant(base, name)
        (out / f"{file}.cu").write_text(text)
        built.append(file)
        if name == "base":
            (out / f"{file}_trace.cu").write_text("#define VYRE_TRACE\n" + text)
            built.append(file + "_trace")
    print(" ".join(built))

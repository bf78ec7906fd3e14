// The decision before every level: a port of FrontierPolicy.decide, of the seed selector
// (MegakernelTopologySelector: select_megakernel_topology and select_megakernel_topology_stable)
// and of the BasisPoints helpers they use, giving the same answers bit for bit (a GPU test holds it
// to the Java classes). Every double operation is an explicit round-to-nearest intrinsic: NVRTC
// would otherwise contract a*b+c into one FMA, rounding once where Java rounds twice. u64 values are
// compared unsigned, as Long.compareUnsigned does.

typedef unsigned long long vf_u64;

// MegakernelExecutionTopology's ordinals.
#define VF_WARP_SPARSE 0
#define VF_SPARSE 1
#define VF_BLOCK_DENSE 2
#define VF_DENSE 3
#define VF_HYBRID 4
#define VF_FUSED 5
#define VF_NO_TOPOLOGY (-1)

#define VF_U32_MAX 0xFFFFFFFFull
#define VF_U64_MAX 0xFFFFFFFFFFFFFFFFull
#define VF_BPS 10000ull

#define VF_WARP_SPARSE_DENSITY 0.03125
#define VF_SPARSE_DENSITY 0.125
#define VF_DENSE_DENSITY 0.70
#define VF_BLOCK_DENSE_DENSITY 0.85
#define VF_FUSION_PRESSURE 0.70
#define VF_FUSION_PRESSURE_HYSTERESIS 0.10
#define VF_FRONTIER_HYSTERESIS 0.025
#define VF_MEMORY_RED_ZONE_BPS 9000ull
#define VF_MEMORY_HYSTERESIS_BPS 250ull
#define VF_LAUNCH_PRESSURE_BPS 1500ull
#define VF_LAUNCH_HYSTERESIS_BPS 250ull
#define VF_FUSION_MEMORY_MARGIN_BPS 500ull
#define VF_FUSION_READBACK_BYTES 4096ull
#define VF_DENSE_AVERAGE_DEGREE_BPS 20000ull
#define VF_WARP_SPARSE_AVERAGE_DEGREE_BPS 80000ull

struct VfDecision {
  int topology;
  vf_u64 memoryBps;
  vf_u64 degreeBps;
  vf_u64 launchBps;
};

// What FrontierPolicy fixes for a run; memoryBps and degreeBps are the selector's, computed once.
struct VfPolicy {
  long long edges;
  vf_u64 memoryBps;
  vf_u64 degreeBps;
  vf_u64 readback;
  double barrier;
  double edge;
  double fusedEdge;
  vf_u64 fitting;  // bit t set when topology t's memory plan fits
  int forced;      // VF_NO_TOPOLOGY or the forced topology
};

// IEEE classification by the bits, so that nothing depends on a math header.
__device__ __forceinline__ bool vf_isfinite(double v) {
  return ((vf_u64)__double_as_longlong(v) & 0x7FF0000000000000ull) != 0x7FF0000000000000ull;
}

__device__ __forceinline__ bool vf_isnan(double v) {
  return ((vf_u64)__double_as_longlong(v) & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
}

__device__ __forceinline__ bool vf_signbit(double v) { return __double_as_longlong(v) < 0; }

// Unsigned.mulDivSaturatingU64: floor(a * b / d) with the product in 128 bits, saturated.
__device__ vf_u64 vf_mul_div_saturating(vf_u64 a, vf_u64 b, vf_u64 d) {
  vf_u64 hi = __umul64hi(a, b);
  vf_u64 lo = a * b;
  if (hi == 0ull) return lo / d;
  if (hi >= d) return VF_U64_MAX;
  // Long division of hi:lo by d; hi < d, so the quotient fits in 64 bits.
  vf_u64 q = 0ull;
  for (int i = 0; i < 64; i++) {
    vf_u64 carry = hi >> 63;
    hi = (hi << 1) | (lo >> 63);
    lo <<= 1;
    q <<= 1;
    if (carry != 0ull || hi >= d) {
      hi -= d;
      q |= 1ull;
    }
  }
  return q;
}

// BasisPoints.ratioU64Wide.
__device__ vf_u64 vf_ratio_u64_wide(vf_u64 part, vf_u64 whole, vf_u64 zeroDenominator) {
  return whole == 0ull ? zeroDenominator : vf_mul_div_saturating(part, VF_BPS, whole);
}

// BasisPoints.toU32Trunc.
__device__ vf_u64 vf_to_u32_trunc(double value) {
  if (!vf_isfinite(value)) return VF_U32_MAX;
  if (value <= 0.0) return 0ull;
  return value > 4294967295.0 ? VF_U32_MAX : __double2ull_rz(value);
}

// BasisPoints.roundHalfAwayFromZero (Rust's f64::round).
__device__ double vf_round_half_away(double value) {
  if (!vf_isfinite(value)) return value;
  double magnitude = __longlong_as_double(__double_as_longlong(value) & 0x7FFFFFFFFFFFFFFFll);
  double whole = floor(magnitude);
  double rounded = __dsub_rn(magnitude, whole) >= 0.5 ? __dadd_rn(whole, 1.0) : whole;
  return vf_signbit(value) ? -rounded : rounded;
}

// BasisPoints.finiteRatioRound.
__device__ vf_u64 vf_finite_ratio_round(double numerator, double denominator, vf_u64 invalidNumerator,
                                        vf_u64 invalidDenominator) {
  if (!vf_isfinite(numerator)) return invalidNumerator;
  if (!vf_isfinite(denominator) || denominator <= 0.0) return invalidDenominator;
  if (numerator <= 0.0) return 0ull;
  double bps = __dmul_rn(__ddiv_rn(numerator, denominator), 10000.0);
  return vf_to_u32_trunc(vf_round_half_away(bps));
}

// BasisPoints.maxIgnoringNaN: Rust's f64::max over Java's Math.max (+0.0 above -0.0).
__device__ double vf_max_ignoring_nan(double a, double b) {
  if (vf_isnan(a)) return b;
  if (vf_isnan(b)) return a;
  if (a == b) return vf_signbit(a) ? b : a;
  return a > b ? a : b;
}

// Java's Math.max: a NaN argument gives NaN; +0.0 above -0.0.
__device__ double vf_java_max(double a, double b) {
  if (vf_isnan(a)) return a;
  if (a == 0.0 && b == 0.0 && vf_signbit(a)) return b;
  return a >= b ? a : b;
}

// The selector's finiteUnit: a density or pressure in [0, 1]; non-finite counts as 0.
__device__ double vf_finite_unit(double value) {
  if (!vf_isfinite(value)) return 0.0;
  return value < 0.0 ? 0.0 : (value > 1.0 ? 1.0 : value);
}

// MegakernelTopologySelector.pressureBps.
__device__ vf_u64 vf_pressure_bps(vf_u64 required, vf_u64 budget) {
  vf_u64 ratio = vf_ratio_u64_wide(required, budget, required == 0ull ? 0ull : VF_U64_MAX);
  return ratio > VF_BPS ? VF_BPS : ratio;
}

// The selector's average degree of MegakernelGraphShape(nodes, edges).
__device__ vf_u64 vf_average_degree_bps(vf_u64 edges, vf_u64 nodes) {
  return vf_ratio_u64_wide(edges, nodes, edges == 0ull ? 0ull : VF_U64_MAX);
}

// select_megakernel_topology, with the memory pressure and average degree already computed.
__device__ VfDecision vf_select(double dispatchCost, double frontierDensity, vf_u64 readback, vf_u64 memoryPressure,
                                vf_u64 averageDegree, double launchOverhead, double fusionPressure) {
  vf_u64 launch = dispatchCost <= 0.0 || !vf_isfinite(dispatchCost)
      ? 0ull
      : vf_finite_ratio_round(vf_max_ignoring_nan(launchOverhead, 0.0), dispatchCost, VF_U32_MAX, VF_U32_MAX);
  double density = vf_finite_unit(frontierDensity);
  double fusion = vf_finite_unit(fusionPressure);
  int topology;
  if (memoryPressure >= VF_MEMORY_RED_ZONE_BPS) {
    topology = VF_SPARSE;
  } else if (fusion >= VF_FUSION_PRESSURE && launch >= VF_LAUNCH_PRESSURE_BPS && readback >= VF_FUSION_READBACK_BYTES
             && memoryPressure <= VF_MEMORY_RED_ZONE_BPS - VF_FUSION_MEMORY_MARGIN_BPS) {
    topology = VF_FUSED;
  } else if (density <= VF_WARP_SPARSE_DENSITY && averageDegree <= VF_WARP_SPARSE_AVERAGE_DEGREE_BPS) {
    topology = VF_WARP_SPARSE;
  } else if (density <= VF_SPARSE_DENSITY) {
    topology = VF_SPARSE;
  } else if (density >= VF_BLOCK_DENSE_DENSITY && averageDegree >= VF_DENSE_AVERAGE_DEGREE_BPS) {
    topology = VF_BLOCK_DENSE;
  } else if (density >= VF_DENSE_DENSITY && averageDegree >= VF_DENSE_AVERAGE_DEGREE_BPS) {
    topology = VF_DENSE;
  } else {
    topology = VF_HYBRID;
  }
  VfDecision decision = {topology, memoryPressure, averageDegree, launch};
  return decision;
}

// The hysteresis of select_megakernel_topology_stable: the topology to run after `previous`.
__device__ int vf_stabilize(const VfDecision& fresh, double frontierDensity, vf_u64 readback, double fusionPressure,
                            int previous) {
  vf_u64 memoryPressure = fresh.memoryBps;
  if (memoryPressure >= VF_MEMORY_RED_ZONE_BPS) return fresh.topology;
  vf_u64 memoryFloor = VF_MEMORY_RED_ZONE_BPS - VF_MEMORY_HYSTERESIS_BPS;
  bool wasSparse = previous == VF_SPARSE || previous == VF_WARP_SPARSE;
  if (wasSparse && memoryPressure >= memoryFloor) return VF_SPARSE;
  double density = vf_finite_unit(frontierDensity);
  double fusion = vf_finite_unit(fusionPressure);
  vf_u64 degree = fresh.degreeBps;
  bool denseDegree = degree >= VF_DENSE_AVERAGE_DEGREE_BPS;
  int raw = fresh.topology;
  bool held;
  switch (previous) {
    case VF_WARP_SPARSE:
      held = density <= __dadd_rn(VF_WARP_SPARSE_DENSITY, VF_FRONTIER_HYSTERESIS)
          && degree <= VF_WARP_SPARSE_AVERAGE_DEGREE_BPS;
      break;
    case VF_SPARSE:
      held = density <= __dadd_rn(VF_SPARSE_DENSITY, VF_FRONTIER_HYSTERESIS);
      break;
    case VF_HYBRID:
      held = (raw == VF_SPARSE && density >= __dsub_rn(VF_SPARSE_DENSITY, VF_FRONTIER_HYSTERESIS))
          || ((raw == VF_DENSE || raw == VF_BLOCK_DENSE) && density <= __dadd_rn(VF_DENSE_DENSITY, VF_FRONTIER_HYSTERESIS));
      break;
    case VF_DENSE:
      held = density >= __dsub_rn(VF_DENSE_DENSITY, VF_FRONTIER_HYSTERESIS) && denseDegree;
      break;
    case VF_BLOCK_DENSE:
      held = density >= __dsub_rn(VF_BLOCK_DENSE_DENSITY, VF_FRONTIER_HYSTERESIS) && denseDegree;
      break;
    default:  // VF_FUSED
      held = fusion >= __dsub_rn(VF_FUSION_PRESSURE, VF_FUSION_PRESSURE_HYSTERESIS)
          && fresh.launchBps >= VF_LAUNCH_PRESSURE_BPS - VF_LAUNCH_HYSTERESIS_BPS
          && readback >= VF_FUSION_READBACK_BYTES && memoryPressure <= memoryFloor;
      break;
  }
  return held ? previous : raw;
}

// FrontierPolicy's constructor: the parts of every decision that do not change between levels.
__device__ VfPolicy vf_policy(long long vertices, long long edges, vf_u64 required, vf_u64 budget, vf_u64 readback,
                              double barrier, double edge, double fusedEdge, vf_u64 fitting, int forced) {
  VfPolicy policy;
  policy.edges = edges;
  policy.memoryBps = vf_pressure_bps(required, budget);
  policy.degreeBps = vf_average_degree_bps((vf_u64)edges, (vf_u64)vertices);
  policy.readback = readback;
  policy.barrier = barrier;
  policy.edge = edge;
  policy.fusedEdge = fusedEdge;
  policy.fitting = fitting;
  policy.forced = forced;
  return policy;
}

// FrontierPolicy.decide (which reads the frontier's edges, not its vertices); previous is
// VF_NO_TOPOLOGY for the first level.
__device__ VfDecision vf_decide(const VfPolicy& policy, long long frontierVertices, long long frontierEdges,
                                int previous) {
  double barrier = policy.barrier;
  double edges = __ll2double_rn(frontierEdges);
  double dispatchCost = __dadd_rn(barrier, __dmul_rn(edges, policy.edge));
  double fusedCost = __dmul_rn(edges, policy.fusedEdge);
  double fusionPressure =
      dispatchCost > 0.0 ? __ddiv_rn(vf_java_max(0.0, __dsub_rn(dispatchCost, fusedCost)), dispatchCost) : 0.0;
  double density = policy.edges == 0 ? 0.0 : __ddiv_rn(edges, __ll2double_rn(policy.edges));
  VfDecision decision = vf_select(dispatchCost, density, policy.readback, policy.memoryBps, policy.degreeBps, barrier,
                                  fusionPressure);
  if (previous != VF_NO_TOPOLOGY) {
    decision.topology = vf_stabilize(decision, density, policy.readback, fusionPressure, previous);
  }
  if (policy.forced != VF_NO_TOPOLOGY) {
    decision.topology = policy.forced;
  } else if (((policy.fitting >> decision.topology) & 1ull) == 0ull) {
    decision.topology = VF_SPARSE;
  }
  return decision;
}

// The topologies for frontiers of fewer than VF_DECISION_EDGES edges, tabled by the whole grid at the kernel's
// start with vf_decide itself (so the same answers): a level's decision is then a load instead of three
// divisions in one thread that every block waits for. The table holds a byte per edge count for each previous
// topology, VF_NO_TOPOLOGY's first.
#define VF_DECISION_EDGES 65536
#define VF_DECISION_PREVIOUS 7

__device__ void vf_fill_decisions(const VfPolicy& policy, unsigned* table, long long thread, long long threads) {
  unsigned char* topologies = reinterpret_cast<unsigned char*>(table);
  for (long long i = thread; i < (long long)VF_DECISION_PREVIOUS * VF_DECISION_EDGES; i += threads) {
    int previous = (int)(i / VF_DECISION_EDGES) - 1;
    topologies[i] = (unsigned char)vf_decide(policy, 0, i % VF_DECISION_EDGES, previous).topology;
  }
}

// vf_decide's topology, from the table (null: none) when it holds the frontier's edges.
__device__ int vf_decide_topology(const VfPolicy& policy, const unsigned* table, long long frontierEdges, int previous) {
  if (table != nullptr && frontierEdges < VF_DECISION_EDGES) {
    return reinterpret_cast<const unsigned char*>(table)[(previous + 1) * VF_DECISION_EDGES + frontierEdges];
  }
  return vf_decide(policy, 0, frontierEdges, previous).topology;
}

// One decision per row, for the GPU test that holds this port to the Java policy. A row is
// VF_DECIDE_IN_WORDS u64s: vertices, edges, required bytes, budget bytes, readback bytes, barrier
// nanos, edge nanos and fused edge nanos (double bits), fitting mask, forced topology (-1 none),
// frontier vertices, frontier edges, previous topology (-1 none). An answer is VF_DECIDE_OUT_WORDS u64s:
// topology, memory bps, average degree bps, launch bps.
#define VF_DECIDE_IN_WORDS 13
#define VF_DECIDE_OUT_WORDS 4

extern "C" __global__ void vyre_frontier_decide_batch(const vf_u64* in, vf_u64* out, vf_u64 rows) {
  for (vf_u64 row = blockIdx.x * (vf_u64)blockDim.x + threadIdx.x; row < rows; row += (vf_u64)gridDim.x * blockDim.x) {
    const vf_u64* r = in + row * VF_DECIDE_IN_WORDS;
    VfPolicy policy = vf_policy((long long)r[0], (long long)r[1], r[2], r[3], r[4], __longlong_as_double((long long)r[5]),
                                __longlong_as_double((long long)r[6]), __longlong_as_double((long long)r[7]), r[8],
                                (int)(long long)r[9]);
    VfDecision d = vf_decide(policy, (long long)r[10], (long long)r[11], (int)(long long)r[12]);
    vf_u64* o = out + row * VF_DECIDE_OUT_WORDS;
    o[0] = (vf_u64)d.topology;
    o[1] = d.memoryBps;
    o[2] = d.degreeBps;
    o[3] = d.launchBps;
  }
}

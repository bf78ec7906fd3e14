package dev.vyre.cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.cuda.KernelSource;
import dev.vyre.driver.planner.MegakernelExecutionTopology;
import dev.vyre.graph.frontier.Afforest;
import dev.vyre.graph.frontier.AfforestPhase;
import dev.vyre.graph.frontier.FrontierResidency;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The host's view of the frontier kernel agrees with its CUDA source: parameter order, state and log layout, ordinals. */
class FrontierKernelSourceTest {

  private static final String SOURCE = KernelSource.frontier();

  private static long define(String name) {
    Matcher m = Pattern.compile("#define " + name + " (\\d+)\\b").matcher(SOURCE);
    assertTrue(m.find(), name + " is defined");
    return Long.parseLong(m.group(1));
  }

  @Test
  void theParameterBlockListsTheStructsFieldsInOrderEachEightBytes() {
    Matcher struct = Pattern.compile("struct VfParams \\{(.*?)\\n\\};", Pattern.DOTALL).matcher(SOURCE);
    assertTrue(struct.find());
    Matcher field = Pattern.compile("^\\s+((?:const )?(?:long long|int|unsigned|vf_u64)\\*?)\\s+(\\w+);",
        Pattern.MULTILINE).matcher(struct.group(1));
    List<String> fields = new ArrayList<>();
    while (field.find()) {
      String type = field.group(1);
      assertTrue(type.endsWith("*") || type.equals("long long"), "8 bytes: " + field.group(0));
      fields.add(field.group(2));
    }
    List<String> components = Arrays.stream(FrontierKernelParams.class.getRecordComponents())
        .map(RecordComponent::getName).toList();
    assertEquals(components, fields);
    assertEquals(FrontierKernelParams.FIELDS, fields.size());
  }

  @Test
  void theStateAndLogLayoutsMatch() {
    assertEquals(FrontierLog.STATE_WORDS, define("VF_STATE_WORDS"));
    assertEquals(FrontierLog.STATE_COUNTERS, define("VF_STATE_COUNTERS"));
    assertEquals(FrontierLog.STATE_LEVELS, define("VF_STATE_LEVELS"));
    assertEquals(FrontierLog.STATE_T_START, define("VF_STATE_T_START"));
    assertEquals(FrontierLog.STATE_T_END, define("VF_STATE_T_END"));
    assertEquals(FrontierLog.STATE_BARRIER_NANOS, define("VF_STATE_BARRIER_NANOS"));
    assertEquals(FrontierLog.STATE_EDGE_NANOS, define("VF_STATE_EDGE_NANOS"));
    assertEquals(FrontierLog.STATE_FUSED_EDGE_NANOS, define("VF_STATE_FUSED_EDGE_NANOS"));
    assertEquals(FrontierLog.LOG_WORDS, define("VF_LOG_WORDS"));
    assertEquals(FrontierLog.HUB_DEGREE, define("VF_HUB_DEGREE"));
    assertEquals(FrontierResidency.DECISION_TABLE_BYTES, define("VF_DECISION_PREVIOUS") * define("VF_DECISION_EDGES"));
    assertEquals(MegakernelExecutionTopology.values().length + 1, define("VF_DECISION_PREVIOUS"));
    assertEquals(PolicyRows.IN_WORDS, define("VF_DECIDE_IN_WORDS"));
    assertEquals(PolicyRows.OUT_WORDS, define("VF_DECIDE_OUT_WORDS"));
    // FrontierResidency prices LEVEL_LOG_BYTES = 64 x 65,536 for the log.
    assertEquals(64L * 65_536, (long) FrontierLog.LOG_WORDS * Long.BYTES * CudaFrontierEngine.LOG_LEVELS);
  }

  @Test
  void theTopologyOrdinalsAreTheEnumsOrdinals() {
    Map<MegakernelExecutionTopology, String> names = Map.of(MegakernelExecutionTopology.WarpSparseFrontier,
        "VF_WARP_SPARSE", MegakernelExecutionTopology.SparseFrontier, "VF_SPARSE",
        MegakernelExecutionTopology.BlockDenseFrontier, "VF_BLOCK_DENSE", MegakernelExecutionTopology.DenseFrontier,
        "VF_DENSE", MegakernelExecutionTopology.HybridFrontier, "VF_HYBRID", MegakernelExecutionTopology.FusedWave,
        "VF_FUSED");
    assertEquals(MegakernelExecutionTopology.values().length, names.size());
    names.forEach((topology, name) -> assertEquals(topology.ordinal(), define(name), name));
  }

  @Test
  void everyPartIsJoinedUnderItsOwnLineDirectiveAndTheEntryPointsExist() {
    for (String part : KernelSource.FRONTIER_PARTS) {
      assertTrue(SOURCE.contains("#line 1 \"" + part + "\""), part);
    }
    String entries = Pattern.compile("extern \"C\" __global__ void (?:__launch_bounds__\\(\\d+\\) )?(\\w+)")
        .matcher(SOURCE).results().map(r -> r.group(1)).sorted().collect(Collectors.joining(","));
    assertEquals("vyre_afforest_run,vyre_frontier_decide_batch,vyre_frontier_level,vyre_frontier_run", entries);
  }

  @Test
  void afforestsConstantsStepsAndAlgorithmsMatch() {
    assertEquals(Afforest.NEIGHBOR_ROUNDS, define("VF_NEIGHBOR_ROUNDS"));
    assertEquals(Afforest.SAMPLES, define("VF_SAMPLES"));
    Matcher seed = Pattern.compile("#define VF_SAMPLE_SEED 0x([0-9A-F]+)ull").matcher(SOURCE);
    assertTrue(seed.find());
    assertEquals(Afforest.SAMPLE_SEED, Long.parseUnsignedLong(seed.group(1), 16));
    Map<AfforestPhase.Step, String> steps = Map.of(AfforestPhase.Step.INIT, "VF_STEP_INIT",
        AfforestPhase.Step.LINK_NEIGHBOUR, "VF_STEP_LINK_NEIGHBOUR", AfforestPhase.Step.COMPRESS, "VF_STEP_COMPRESS",
        AfforestPhase.Step.SAMPLE, "VF_STEP_SAMPLE", AfforestPhase.Step.LINK_REST, "VF_STEP_LINK_REST",
        AfforestPhase.Step.FINAL_COMPRESS, "VF_STEP_FINAL_COMPRESS");
    assertEquals(AfforestPhase.Step.values().length, steps.size());
    steps.forEach((step, name) -> assertEquals(step.ordinal(), define(name), name));
    assertEquals(FrontierKernelParams.BFS, define("VF_BFS"));
    assertEquals(FrontierKernelParams.LABEL_PROPAGATION, define("VF_COMPONENTS"));
    assertEquals(FrontierKernelParams.AFFOREST, define("VF_AFFOREST"));
  }
}

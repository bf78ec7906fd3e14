package dev.vyre.cli.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vyre.cli.conform.ConformModule;
import dev.vyre.cli.conform.ConformRegistry;
import dev.vyre.cli.conform.Json;
import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import dev.vyre.policy.MegakernelGridLimits;
import dev.vyre.policy.MegakernelGridRequest;
import dev.vyre.policy.MegakernelLaunchPolicy;
import dev.vyre.policy.MegakernelLaunchRecommendation;
import dev.vyre.policy.MegakernelLaunchRequest;
import dev.vyre.policy.MegakernelPromotionEvidence;
import dev.vyre.policy.MegakernelTopologyEvidence;
import dev.vyre.policy.PolicyAutotune;
import dev.vyre.policy.PriorityDiffusion;
import dev.vyre.policy.PriorityRequeueAccounting;
import dev.vyre.policy.RecommendationWithEvidence;

/**
 * The launch-policy functions of {@code vyre conform}, standard policy: docs/CONFORMANCE.md, "Launch policy" and "Other
 * policy functions".
 */
public final class PolicyConformModule implements ConformModule {

  /** The service instance; {@link java.util.ServiceLoader} calls this. */
  public PolicyConformModule() {}

  private static final String SOURCE = "conform";
  private static final MegakernelLaunchPolicy POLICY = MegakernelLaunchPolicy.standard();

  @Override
  public void register(ConformRegistry registry) {
    registry.add("recommend", PolicyConformModule::recommend);
    registry.add("recommend_with_topology_evidence", input -> {
      RecommendationWithEvidence<MegakernelTopologyEvidence> result = POLICY.recommendWithTopologyEvidence(request(input));
      return withEvidence(result.recommendation(), PolicyJson.topologyEvidence(result.evidence()));
    });
    registry.add("recommend_with_promotion_evidence", input -> {
      RecommendationWithEvidence<MegakernelPromotionEvidence> result =
          POLICY.recommendWithPromotionEvidence(request(input));
      return withEvidence(result.recommendation(), PolicyJson.promotionEvidence(result.evidence()));
    });
    registry.add("calculate_optimal_grid", PolicyConformModule::calculateOptimalGrid);
    registry.add("drain_recommendation", input -> {
      JsonNode accounting = PolicyJson.requireObject(input.get("accounting"), "accounting", SOURCE);
      return PolicyJson.drainRecommendation(new PriorityRequeueAccounting(
          PolicyJson.u64(accounting, "requeue_count", SOURCE), PolicyJson.u64(accounting, "aged_promotions", SOURCE),
          PolicyJson.u32(accounting, "max_priority_age", SOURCE)).drainRecommendation());
    });
    registry.add("diffuse_priority_across_siblings", input -> result(PriorityDiffusion.diffusePriorityAcrossSiblings(
        f64s(input, "priority_stalks"), f64s(input, "restriction_diag"), Json.f64(input, "damping"),
        PolicyJson.u32(input, "iterations", SOURCE))));
    registry.add("autotune_hit_capacity_multiplier", input -> result(
        POLICY.autotuneHitCapacityMultiplier(u32s(input, "candidate_multipliers"), f64s(input, "costs"))));
    registry.add("autotune_workgroup_size", input -> result(POLICY.autotuneWorkgroupSize(
        u32s(input, "candidate_sizes"), f64s(input, "costs"), PolicyJson.u32(input, "current_size", SOURCE))));
    registry.add("natural_gradient_autotune_step", input -> result(PolicyAutotune.naturalGradientStep(
        f64s(input, "m_inv_sqrt"), f64s(input, "grad"), PolicyJson.u32(input, "n", SOURCE),
        Json.f64(input, "learning_rate"))));
  }

  private static JsonNode recommend(JsonNode input) {
    MegakernelLaunchRequest request = request(input);
    JsonNode previous = input.get("previous_topology");
    if (previous == null || previous.isNull()) {
      return PolicyJson.recommendation(POLICY.recommend(request));
    }
    if (!previous.isTextual()) {
      throw InputException.of(SOURCE, "previous_topology is " + previous, "pass null or a topology name");
    }
    return PolicyJson.recommendation(
        POLICY.recommendWithPreviousTopology(request, PolicyJson.topology(previous.asText(), SOURCE)));
  }

  private static JsonNode calculateOptimalGrid(JsonNode input) {
    JsonNode request = PolicyJson.requireObject(input.get("request"), "request", SOURCE);
    JsonNode limits = PolicyJson.requireObject(input.get("limits"), "limits", SOURCE);
    return PolicyJson.gridPlan(POLICY.sizing().calculateOptimalGrid(
        new MegakernelGridRequest(PolicyJson.u32(request, "queue_len", SOURCE),
            PolicyJson.u32(request, "requested_worker_groups", SOURCE)),
        new MegakernelGridLimits(PolicyJson.u32(limits, "max_workgroup_size_x", SOURCE),
            PolicyJson.u32(limits, "max_compute_workgroups_per_dimension", SOURCE),
            PolicyJson.u32(limits, "max_compute_invocations_per_workgroup", SOURCE))));
  }

  private static MegakernelLaunchRequest request(JsonNode input) {
    return PolicyJson.request(input.get("request"), SOURCE);
  }

  private static ObjectNode withEvidence(MegakernelLaunchRecommendation recommendation, ObjectNode evidence) {
    ObjectNode json = Json.object();
    json.set("recommendation", PolicyJson.recommendation(recommendation));
    json.set("evidence", evidence);
    return json;
  }

  private static ObjectNode result(long value) {
    ObjectNode json = Json.object();
    json.put("result", value);
    return json;
  }

  private static ObjectNode result(double[] values) {
    ObjectNode json = Json.object();
    ArrayNode array = json.putArray("result");
    for (double value : values) {
      array.add(Json.f64Node(value));
    }
    return json;
  }

  private static JsonNode array(JsonNode input, String field) {
    JsonNode node = Json.required(input, field);
    if (!node.isArray()) {
      throw InputException.of(SOURCE, field + " is not an array", "pass " + field + " as a JSON array");
    }
    return node;
  }

  private static double[] f64s(JsonNode input, String field) {
    JsonNode array = array(input, field);
    double[] values = new double[array.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = Json.f64Value(array.get(i), field + "[" + i + "]");
    }
    return values;
  }

  private static long[] u32s(JsonNode input, String field) {
    JsonNode array = array(input, field);
    long[] values = new long[array.size()];
    for (int i = 0; i < values.length; i++) {
      long value = Json.u64Value(array.get(i), field + "[" + i + "]");
      if (!Unsigned.fitsU32(value)) {
        throw InputException.of(SOURCE, field + "[" + i + "] is outside u32", "pass values in 0..4294967295");
      }
      values[i] = value;
    }
    return values;
  }
}

package dev.vyre.policy;

/** A launch recommendation together with the evidence that explains it. */
public record RecommendationWithEvidence<E>(MegakernelLaunchRecommendation recommendation, E evidence) {}

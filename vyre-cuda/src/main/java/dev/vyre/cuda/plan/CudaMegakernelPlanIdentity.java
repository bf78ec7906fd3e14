package dev.vyre.cuda.plan;

/**
 * The architectural identity of a cached megakernel plan (vyre's
 * {@code CudaMegakernelPlanIdentityKey}): the resident graph layout, the analysis family and the
 * device. The plan cache remembers the latest topology of each identity for hysteresis.
 *
 * @param graphLayoutHash caller-provided stable hash of the normalized resident graph layout
 * @param analysisKind analysis family consuming the layout
 * @param device device feature signature
 */
public record CudaMegakernelPlanIdentity(long graphLayoutHash, CudaMegakernelAnalysisKind analysisKind,
    CudaMegakernelDeviceKey device) {}

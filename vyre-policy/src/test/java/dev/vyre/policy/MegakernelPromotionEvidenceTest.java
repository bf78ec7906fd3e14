package dev.vyre.policy;

import static dev.vyre.policy.MegakernelExecutionMode.Interpreter;
import static dev.vyre.policy.MegakernelExecutionMode.Jit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MegakernelPromotionEvidenceTest {

  @Test
  void routes() {
    assertEquals(MegakernelPromotionRoute.Interpreter, MegakernelPromotionRoute.of(Interpreter, true, true));
    assertEquals(MegakernelPromotionRoute.QueueJit, MegakernelPromotionRoute.of(Jit, false, false));
    assertEquals(MegakernelPromotionRoute.OpcodeJit, MegakernelPromotionRoute.of(Jit, true, false));
    assertEquals(MegakernelPromotionRoute.WindowJit, MegakernelPromotionRoute.of(Jit, false, true));
    assertEquals(MegakernelPromotionRoute.OpcodeAndWindowJit, MegakernelPromotionRoute.of(Jit, true, true));
    assertEquals("opcode_and_window_jit", MegakernelPromotionRoute.OpcodeAndWindowJit.label());
  }

  @Test
  void longQueueIsAQueueJitWithoutPromotion() {
    MegakernelPromotionEvidence evidence = MegakernelLaunchPolicy.standard()
        .recommendWithPromotionEvidence(MegakernelLaunchRequest.direct(4096, 64, 256)).evidence();
    assertEquals(MegakernelPromotionRoute.QueueJit, evidence.promotionRoute());
    assertFalse(evidence.fusedDescriptorWindowRequired());
    assertTrue(evidence.isComplete());
  }

  @Test
  void completeNeedsThresholdsAndConsistentFlags() {
    assertFalse(new MegakernelPromotionEvidence(1, 1, 0, 0, 8, 0, 4, Interpreter, false, false,
        MegakernelPromotionRoute.Interpreter, false, true).isComplete());
    assertFalse(new MegakernelPromotionEvidence(1, 1, 4096, 0, 8, 9, 4, Jit, false, true,
        MegakernelPromotionRoute.WindowJit, false, true).isComplete());
    assertFalse(new MegakernelPromotionEvidence(2, 1, 4096, 0, 8, 0, 4, Interpreter, false, false,
        MegakernelPromotionRoute.Interpreter, false, true).isComplete());
  }
}

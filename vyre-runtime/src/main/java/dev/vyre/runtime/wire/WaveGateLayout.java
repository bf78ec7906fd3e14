package dev.vyre.runtime.wire;

import dev.vyre.driver.error.PipelineException;

/**
 * Wave gates (ours; docs/WAVES.md): how a task of a wave DAG says which layer it belongs to, and
 * the table of per-layer counters that releases each layer on the device. Shared by the host, the
 * reference interpreter and the CUDA kernel (mirrored as {@code VYRE_WAVE_*}).
 *
 * <p><b>The gate word.</b> A slot's priority word (word 3) holds its level in its low
 * {@link #LEVEL_BITS} bits; the kernel never reads the rest, since the partition a slot sits in is
 * its priority. A wave task sets the rest: bits {@code 3..14} the handle of its gate table (a
 * DEVICE resource), bits {@code 15..31} its layer plus one. A word below {@link #GATED_MIN} is an
 * ordinary task, so the ordinary path pays one compare.
 *
 * <p><b>The table.</b> {@code layers + 1} words: word 0 is always 0 (the layer before the first,
 * complete), word {@code k + 1} counts layer {@code k}'s tasks that have not finished, with
 * {@link #FAILED} set once one of them, or one of an earlier layer, finished other than DONE. A task
 * of layer {@code k} runs when word {@code k} is 0, is requeued while word {@code k} has tasks left,
 * and faults ({@link FaultReason#WAVE_PREDECESSOR_FAILED}) when word {@code k} is exactly
 * {@code FAILED}; when it finishes (any final status) it decrements word {@code k + 1}, setting
 * {@code FAILED} first unless it finished DONE.
 */
public final class WaveGateLayout {

  /** Low bits of the priority word that hold the level (0..4). */
  public static final int LEVEL_BITS = 3;
  public static final int LEVEL_MASK = (1 << LEVEL_BITS) - 1;
  public static final int HANDLE_SHIFT = LEVEL_BITS;
  public static final int HANDLE_BITS = 12;
  public static final int HANDLE_MASK = (1 << HANDLE_BITS) - 1;
  /** The gate field (layer + 1) starts here; a non-zero gate field marks a wave task. */
  public static final int LAYER_SHIFT = HANDLE_SHIFT + HANDLE_BITS;
  /** The smallest priority word of a wave task (layer 0, handle 0). */
  public static final int GATED_MIN = 1 << LAYER_SHIFT;
  /** Layers one gate table can hold: the layer field holds layer + 1 in 17 bits. */
  public static final int MAX_LAYERS = (1 << (32 - LAYER_SHIFT)) - 1;
  /** Set in a layer's counter once one of its tasks, or one of an earlier layer, did not finish DONE. */
  public static final int FAILED = 0x8000_0000;
  /** Tasks one layer may hold: its counter keeps the top bit for {@link #FAILED}. */
  public static final int MAX_LAYER_TASKS = FAILED - 1;

  private WaveGateLayout() {}

  /**
   * The gate bits of a task of layer {@code layer} whose table is resource {@code handle}, to be
   * or'ed with the level.
   *
   * @throws PipelineException when the handle or layer does not fit the gate word
   */
  public static int gate(int handle, int layer) {
    if (handle < 0 || handle > HANDLE_MASK) {
      throw PipelineException.invalidArgument("wave gate", "gate table handle " + handle + " does not fit the gate word's "
          + HANDLE_BITS + " bits", "allocate the wave DAG's gate table among the kernel's first " + (HANDLE_MASK + 1) + " resources");
    }
    if (layer < 0 || layer >= MAX_LAYERS) {
      throw PipelineException.invalidArgument("wave gate", "layer " + layer + " is outside 0.." + (MAX_LAYERS - 1),
          "split the DAG into several of at most " + MAX_LAYERS + " layers, published one after another");
    }
    return handle << HANDLE_SHIFT | (layer + 1) << LAYER_SHIFT;
  }

  /** True for the priority word of a wave task. */
  public static boolean isGated(int priorityWord) {
    return Integer.compareUnsigned(priorityWord, GATED_MIN) >= 0;
  }

  /** The gate table's resource handle of a wave task's priority word. */
  public static int handle(int priorityWord) {
    return priorityWord >>> HANDLE_SHIFT & HANDLE_MASK;
  }

  /** The table word a wave task decrements when it finishes: its layer plus one. */
  public static int ownWord(int priorityWord) {
    return priorityWord >>> LAYER_SHIFT;
  }

  /** The level (0..4) of any slot's priority word. */
  public static int level(int priorityWord) {
    return priorityWord & LEVEL_MASK;
  }

  /** Words of the gate table of {@code layers} layers. */
  public static long tableWords(int layers) {
    return layers + 1L;
  }
}

package dev.vyre.cuda.wire;

/**
 * The head of each block's dynamic shared memory in the megakernel, the C struct {@code VyrePromotedCopy}
 * (megakernel/dfa.cu): the block's copy of the promoted DFA table follows it. The host launches the kernel
 * with {@link #HEADER_BYTES} plus the largest compact table it may promote; the kernel checks each table
 * against what it was given.
 */
public final class PromotedCopyLayout {

  /**
   * sizeof(VyrePromotedCopy): the copy's sequence, status and readers, and while lanes fill it the parts
   * copied and the word they take parts from, padded to 32 bytes.
   */
  public static final int HEADER_BYTES = 32;

  private PromotedCopyLayout() {}
}

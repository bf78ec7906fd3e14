package dev.vyre.cuda.wire;

import dev.vyre.runtime.wire.ControlLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Which copy of the control block owns which word. The CUDA backend keeps two: the host-mapped one,
 * which the host writes, and a copy in device memory that is authoritative for every word the
 * kernel changes (device atomics on mapped host memory are not allowed). The host-written words
 * are the ones the kernel reads from the mapped copy ({@code vyre_host_owned} in
 * megakernel/memory.cu); a snapshot of a running kernel takes them from there and the rest from
 * the device copy.
 */
public final class ControlCopies {

  /** Control words the host writes while the kernel runs. */
  public static final List<Integer> HOST_WRITTEN_WORDS = hostWrittenWords();

  private ControlCopies() {}

  private static List<Integer> hostWrittenWords() {
    List<Integer> words = new ArrayList<>();
    words.add(ControlLayout.SHUTDOWN);
    // The tenant table's pointer and masks, and the tenants' read quotas.
    for (int w = ControlLayout.TENANT_BASE; w < ControlLayout.tenantQuotaWord(ControlLayout.MAX_TENANTS); w++) {
      words.add(w);
    }
    for (int w = 0; w < ControlLayout.PRIORITY_OFFSETS_SLOTS; w++) {
      words.add(ControlLayout.PRIORITY_OFFSETS_BASE + w);
    }
    for (int p = 0; p < ControlLayout.PRIORITY_LEVELS; p++) {
      words.add(ControlLayout.publishSeqWord(p));
    }
    return List.copyOf(words);
  }
}

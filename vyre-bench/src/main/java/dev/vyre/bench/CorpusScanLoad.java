package dev.vyre.bench;

import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.DfaTable;
import java.io.IOException;

/** A load of {@code vyre bench adapt} that scans a corpus of its own ({@link CorpusScanJob}) with one table. */
abstract class CorpusScanLoad implements AdaptWorkload {

  private final String name;
  final CorpusScanJob scans;

  CorpusScanLoad(String name, AdaptBench.Settings settings, DfaTable table, CorpusScanJob.CorpusWriter writer)
      throws IOException {
    this.name = name;
    this.scans = new CorpusScanJob(settings, name, table, writer);
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Megakernel boot() {
    return scans.boot();
  }

  @Override
  public final void warmUp(Megakernel kernel) {
    scans.scan();
  }

  @Override
  public final void detach() {
    scans.detach();
  }

  /** Deletes the corpus. */
  @Override
  public final void close() {
    scans.close();
  }
}

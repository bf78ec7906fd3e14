package dev.vyre.bench;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSummary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the loads of {@code vyre bench adapt} that scan share: a corpus in a temporary file, one
 * table, and a scan job on the load's kernel with the backend's default options fitted to the corpus.
 */
final class CorpusScanJob implements AutoCloseable {

  /** Writes the corpus into the (empty) temporary file. */
  @FunctionalInterface
  interface CorpusWriter {
    void write(Path file) throws IOException;
  }

  private final long bytes;
  private final String backend;
  private final DfaTable table;
  private final Path corpus;
  private ScanJob job;

  CorpusScanJob(AdaptBench.Settings settings, String name, DfaTable table, CorpusWriter writer) throws IOException {
    this.bytes = settings.corpusBytes();
    this.backend = settings.backend();
    this.table = table;
    this.corpus = Files.createTempFile("vyre-bench-adapt-" + name, ".txt");
    try {
      writer.write(corpus);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(corpus);
      throw e;
    }
  }

  DfaTable table() {
    return table;
  }

  /** Starts the kernel and the scan job on it. */
  Megakernel boot() {
    // Ring slots for the options of the backend named; "auto" has a GPU's, the most a scan needs.
    Megakernel kernel = Megakernel.builder().backend(backend).slots(options(backend).ringSlots())
        .singlePriority(Priority.NORMAL).bootstrap();
    job = new ScanJob(kernel, table, options(kernel.backendName()));
    return kernel;
  }

  private ScanOptions options(String backendName) {
    return ScanOptions.forBackend(backendName).fittedTo(bytes).fittingHitCounter(table);
  }

  /** One scan of the whole corpus. */
  ScanSummary scan() {
    return job.run(List.of(new ScanFile(corpus, bytes)), result -> {});
  }

  /** Closes the scan job, before the kernel closes. */
  void detach() {
    if (job != null) {
      job.close();
      job = null;
    }
  }

  /** Deletes the corpus. */
  @Override
  public void close() {
    try {
      Files.deleteIfExists(corpus);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

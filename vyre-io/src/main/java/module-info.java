/**
 * File ingest: chunk readers, the ingest pump, the IO request pump that serves the reads tasks ask
 * for, and the io_uring binding (FFM, Linux only) behind them.
 */
module dev.vyre.io {
  requires transitive dev.vyre.runtime;

  exports dev.vyre.io;
  exports dev.vyre.io.uring to dev.vyre.bench;

  provides dev.vyre.runtime.spi.DoctorProbe with dev.vyre.io.IoDoctorLine;
}

/**
 * File IO for the megakernel. {@link dev.vyre.io.IngestPump} reads file ranges into a kernel
 * resource and publishes a task per range once its bytes are there; {@link dev.vyre.io.IoRequestPump}
 * serves the reads running tasks ask for through the IO queue, and {@link dev.vyre.io.LoadOpcode} is a
 * ready-made task that asks for one. Both read through io_uring where it works and through
 * {@link java.nio.channels.FileChannel} otherwise ({@link dev.vyre.io.ChunkReader},
 * {@link dev.vyre.io.IoBackends}, {@link dev.vyre.io.IoUringAvailability}). See docs/PROTOCOL.md, "File
 * ingest" and "Reads a task asks for".
 */
package dev.vyre.io;

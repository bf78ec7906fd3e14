/**
 * The Linux-only io_uring binding (FFM), exported only to the command line: a chunk reader over
 * registered buffers and files ({@link dev.vyre.io.uring.IoUringChunkReader}), range reads with many in
 * flight ({@link dev.vyre.io.uring.IoUringRangeReader}), and the probe that says whether io_uring works
 * here and why not ({@link dev.vyre.io.uring.IoUringProbe}).
 */
package dev.vyre.io.uring;

package dev.vyre.io.uring;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.BufferPool;
import dev.vyre.io.ChunkReader;

/**
 * The same contract and io_uring tests with a kernel that refuses every other io_uring_enter,
 * alternately with EBUSY and EAGAIN, as one short of memory or with an overflowing completion
 * ring may: the reader reaps, enters again and loses no read.
 */
class RefusingEnterIoUringChunkReaderTest extends IoUringChunkReaderTest {

  @Override
  protected ChunkReader open(BufferPool pool) {
    int[] calls = {0};
    return new IoUringChunkReader(pool, false, (linux, ringFd, toSubmit, minComplete, flags) -> {
      int call = calls[0]++;
      if (call % 2 == 0) {
        int errno = call % 4 == 0 ? Errno.EBUSY : Errno.EAGAIN;
        throw PipelineException.ioUringSyscall("io_uring_enter", errno, Errno.name(errno));
      }
      return IoUring.EnterCall.SYSCALL.enter(linux, ringFd, toSubmit, minComplete, flags);
    });
  }
}

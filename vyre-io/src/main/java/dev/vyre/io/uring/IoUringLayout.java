package dev.vyre.io.uring;

/**
 * The Linux io_uring ABI this package uses: syscall numbers, {@code struct io_uring_params},
 * submission and completion entry layouts, mmap offsets, opcodes and flags (from
 * {@code <linux/io_uring.h>}). Byte offsets; all fields little-endian on the supported machines.
 */
final class IoUringLayout {

  /** io_uring syscalls share these numbers on every architecture (asm-generic). */
  static final long SYS_IO_URING_SETUP = 425;
  static final long SYS_IO_URING_ENTER = 426;
  static final long SYS_IO_URING_REGISTER = 427;

  /** struct io_uring_params: 120 bytes. */
  static final long PARAMS_BYTES = 120;
  static final long PARAMS_SQ_ENTRIES = 0;
  static final long PARAMS_CQ_ENTRIES = 4;
  static final long PARAMS_FEATURES = 20;
  static final long PARAMS_SQ_OFF = 40;
  static final long PARAMS_CQ_OFF = 80;

  /** struct io_sqring_offsets, relative to PARAMS_SQ_OFF. */
  static final long SQ_OFF_HEAD = 0;
  static final long SQ_OFF_TAIL = 4;
  static final long SQ_OFF_RING_MASK = 8;
  static final long SQ_OFF_ARRAY = 24;

  /** struct io_cqring_offsets, relative to PARAMS_CQ_OFF. */
  static final long CQ_OFF_HEAD = 0;
  static final long CQ_OFF_TAIL = 4;
  static final long CQ_OFF_RING_MASK = 8;
  static final long CQ_OFF_CQES = 20;

  /** struct io_uring_sqe: 64 bytes. */
  static final long SQE_BYTES = 64;
  static final long SQE_OPCODE = 0;
  static final long SQE_FLAGS = 1;
  static final long SQE_FD = 4;
  static final long SQE_OFF = 8;
  static final long SQE_ADDR = 16;
  static final long SQE_LEN = 24;
  static final long SQE_USER_DATA = 32;
  static final long SQE_BUF_INDEX = 40;
  /** The union of rw_flags, open_flags, statx_flags...: an OPENAT's open(2) flags. */
  static final long SQE_OP_FLAGS = 28;

  /** struct io_uring_cqe: 16 bytes (no IORING_SETUP_CQE32). */
  static final long CQE_BYTES = 16;
  static final long CQE_USER_DATA = 0;
  static final long CQE_RES = 8;

  static final long IORING_OFF_SQ_RING = 0;
  static final long IORING_OFF_CQ_RING = 0x8000000L;
  static final long IORING_OFF_SQES = 0x10000000L;

  static final int IORING_FEAT_SINGLE_MMAP = 1;
  static final byte IORING_OP_READ_FIXED = 4;
  /** A read into any address of an ordinary fd, like pread(2) (5.6+). */
  static final byte IORING_OP_READ = 22;
  /** openat(2) (5.6+). */
  static final byte IORING_OP_OPENAT = 18;
  /** close(2) (5.6+). */
  static final byte IORING_OP_CLOSE = 19;
  /** openat's directory for a path relative to the working directory. */
  static final int AT_FDCWD = -100;
  /** Always run the entry in an io-wq worker thread, never inline in io_uring_enter (5.6+). */
  static final byte IOSQE_ASYNC = 1 << 4;
  static final int IORING_ENTER_GETEVENTS = 1;
  static final int IORING_REGISTER_BUFFERS = 0;

  /** struct iovec {void *base; size_t len}: 16 bytes. */
  static final long IOVEC_BYTES = 16;

  private IoUringLayout() {}
}

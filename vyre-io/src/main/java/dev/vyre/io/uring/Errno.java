package dev.vyre.io.uring;

/** The Linux errno values the io_uring readers tell apart or name in messages. */
final class Errno {

  static final int EPERM = 1;
  static final int ENOENT = 2;
  static final int EINTR = 4;
  static final int EIO = 5;
  static final int EBADF = 9;
  static final int EAGAIN = 11;
  static final int ENOMEM = 12;
  static final int EACCES = 13;
  static final int EFAULT = 14;
  static final int EBUSY = 16;
  static final int EISDIR = 21;
  static final int EINVAL = 22;
  static final int ENOSYS = 38;

  private Errno() {}

  /** {@code "EIO (errno 5)"}, or {@code "errno 77"} for one without a name here. */
  static String describe(int errno) {
    String name = name(errno);
    return name.startsWith("errno") ? name : name + " (errno " + errno + ")";
  }

  static String name(int errno) {
    return switch (errno) {
      case EPERM -> "EPERM";
      case ENOENT -> "ENOENT";
      case EINTR -> "EINTR";
      case EIO -> "EIO";
      case EBADF -> "EBADF";
      case EAGAIN -> "EAGAIN";
      case ENOMEM -> "ENOMEM";
      case EACCES -> "EACCES";
      case EFAULT -> "EFAULT";
      case EBUSY -> "EBUSY";
      case EISDIR -> "EISDIR";
      case EINVAL -> "EINVAL";
      case ENOSYS -> "ENOSYS";
      default -> "errno " + errno;
    };
  }
}

package dev.vyre.runtime.io.uring;

/** The Linux errno values the io_uring reader tells apart, with their names for messages. */
final class Errno {

  static final int EPERM = 1;
  static final int ENOENT = 2;
  static final int EINTR = 4;
  static final int EAGAIN = 11;
  static final int ENOMEM = 12;
  static final int EACCES = 13;
  static final int EBUSY = 16;
  static final int EINVAL = 22;
  static final int ENOSYS = 38;

  private Errno() {}

  static String name(int errno) {
    return switch (errno) {
      case EPERM -> "EPERM";
      case ENOENT -> "ENOENT";
      case EINTR -> "EINTR";
      case EAGAIN -> "EAGAIN";
      case ENOMEM -> "ENOMEM";
      case EACCES -> "EACCES";
      case EBUSY -> "EBUSY";
      case EINVAL -> "EINVAL";
      case ENOSYS -> "ENOSYS";
      default -> "errno " + errno;
    };
  }
}

package dev.vyre.cli;

/**
 * The message {@code vyre scan} prints for a file it could not scan: grep's {@code path: reason}, so the
 * two read alike, then the {@code Fix: ...} every vyre error ends with, chosen by the reason.
 */
final class ScanFileErrors {

  private ScanFileErrors() {}

  static String message(Object path, String reason) {
    return "vyre scan: " + path + ": " + reason + ". Fix: " + fix(reason);
  }

  static String fix(String reason) {
    return switch (reason) {
      case "No such file or directory" -> "check the path; -s leaves out files that do not exist or cannot be read";
      case "Permission denied", "Operation not permitted" ->
          "make it readable (chmod, or run as a user who may read it), or leave it out with --exclude or --exclude-dir";
      case "Too many open files" -> "raise the limit (ulimit -n) and scan again";
      case "Too many levels of symbolic links" -> "repair the symbolic link, or leave it out with --exclude";
      case String r when r.startsWith("not a regular file") -> "save what it holds to a file and scan that, or leave it out";
      case String r when r.startsWith("read failed") -> "check the disk it is on (dmesg may say more), then scan again";
      case String r when r.startsWith("the file is") -> "split it into parts below 8 TiB (split -b 4T) and scan those";
      case String r when r.contains("a hit buffer holds") -> "scan it with a smaller --chunk-size, or count its"
          + " matches with -c, which has no such limit";
      default -> "check that it exists and can be read, or leave it out with --exclude or --exclude-dir";
    };
  }
}

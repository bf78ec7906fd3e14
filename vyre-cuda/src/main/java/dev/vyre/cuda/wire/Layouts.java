package dev.vyre.cuda.wire;

import java.lang.foreign.MemorySegment;

/** The size and bounds checks the layouts of this package share. */
final class Layouts {

  private Layouts() {}

  /** Refuses a segment that is not exactly {@code bytes} long: a wrong size means a wrong layout. */
  static void checkSize(MemorySegment segment, long bytes, String what) {
    if (segment.byteSize() != bytes) {
      throw new IllegalArgumentException(what + " is " + bytes + " bytes; this segment has " + segment.byteSize()
          + " (allocate exactly " + bytes + " bytes)");
    }
  }
}

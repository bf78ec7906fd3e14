package dev.vyre.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** The positional read every reader of a file range needs: {@code pread} until the buffer is full or the file ends. */
public final class FileReads {

  private FileReads() {}

  /**
   * Reads from {@code position} into {@code buffer} until it is full or the file ends; returns the
   * bytes read, fewer than the buffer had room for only at the end of the file.
   */
  public static int readAt(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
    int first = buffer.position();
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position() - first) < 0) {
        break;
      }
    }
    return buffer.position() - first;
  }
}

package dev.vyre.observe.replay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** The file writes a replay log and its rerun sidecar share, each failure a {@code ReplayLogException.Io} naming the file. */
final class ReplayFiles {

  private ReplayFiles() {}

  /** Writes all of {@code buffer} at {@code position}. */
  static void write(FileChannel channel, Path path, ByteBuffer buffer, long position) {
    try {
      writeFully(channel, buffer, position);
    } catch (IOException e) {
      throw ReplayLogException.io("write", path.toString(), e);
    }
  }

  /** Writes all of {@code buffer} at {@code position}; a failure may come after part of it was written. */
  static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += channel.write(buffer, at);
    }
  }

  /** Forces everything written so far to the storage device (fsync). */
  static void sync(FileChannel channel, Path path) {
    try {
      channel.force(true);
    } catch (IOException e) {
      throw ReplayLogException.io("sync", path.toString(), e);
    }
  }

  static void close(FileChannel channel, Path path) {
    try {
      channel.close();
    } catch (IOException e) {
      throw ReplayLogException.io("close", path.toString(), e);
    }
  }
}

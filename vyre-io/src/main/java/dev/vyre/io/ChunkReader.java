package dev.vyre.io;

import java.nio.file.Path;

/**
 * Reads file chunks into a fixed {@link BufferPool} with several reads in flight; completions come
 * back in any order, each paired with its request by the caller's {@code userData}. A buffer
 * belongs to the reader from {@link #submit} until its completion is returned by {@link #await},
 * and to the caller otherwise. Not thread-safe: one thread submits and awaits.
 */
public interface ChunkReader extends AutoCloseable {

  /**
   * The backend, for {@code --verbose}: {@code "io_uring"}, {@code "FileChannel"}, or
   * {@code "FileChannel (why io_uring is not used)"}.
   */
  String backend();

  BufferPool pool();

  /**
   * Opens {@code file} for reading and returns its handle for {@link #submit}.
   *
   * @throws dev.vyre.driver.error.PipelineException when the file cannot be opened or too many are open
   */
  int openFile(Path file);

  /**
   * Says that {@code file} will be opened soon, after the files expected before it and in that
   * order, so that the reader may open it ahead of {@link #openFile} (io_uring opens them in batches
   * with its reads). Returns false when it takes no more for now: say it again later. Any file
   * expected and never opened is closed by {@link #close}. A reader that opens nothing ahead takes none.
   */
  default boolean expect(Path file) {
    return false;
  }

  /** Closes a file handle; refused while a read on it is in flight. */
  void closeFile(int file);

  /**
   * Starts reading {@code length} bytes at {@code fileOffset} of {@code file} into the start of
   * buffer {@code bufferIndex}. Refused, changing nothing, when the buffer is busy or too small.
   */
  default void submit(int file, long fileOffset, int length, int bufferIndex, long userData) {
    submit(file, fileOffset, length, bufferIndex, 0, userData);
  }

  /**
   * As {@link #submit(int, long, int, int, long)}, into buffer {@code bufferIndex} from byte
   * {@code bufferOffset} on, so that several small files can be read one after another into one
   * buffer. Refused, changing nothing, when the buffer is busy or the read does not fit after the offset.
   */
  void submit(int file, long fileOffset, int length, int bufferIndex, long bufferOffset, long userData);

  /**
   * Reads {@code count} ranges into buffer {@code bufferIndex} and returns when all are done, while
   * no other read is in flight: range i is {@code lengths[i]} bytes of open file {@code files[i]} from
   * {@code fileOffsets[i]}, read to byte {@code bufferOffsets[i]} of the buffer, and its completion
   * (userData i, possibly failed) lands in {@code completions[i]}. For a pack of small files: a
   * reader that can queue them all (io_uring) reads them with a call into the kernel for many, where
   * one {@link #submit} and {@link #await} each cost a call apiece. This default does exactly that.
   */
  default void readAll(int bufferIndex, int count, int[] files, long[] fileOffsets, int[] lengths,
      long[] bufferOffsets, ReadCompletion[] completions) {
    for (int i = 0; i < count; i++) {
      submit(files[i], fileOffsets[i], lengths[i], bufferIndex, bufferOffsets[i], i);
      completions[i] = await();
    }
  }

  /** Reads submitted and not yet returned by {@link #await} or {@link #poll}. */
  int inFlight();

  /**
   * Waits for the next finished read. A failed read is returned, not thrown, so that the caller
   * can report the file and go on.
   *
   * @throws dev.vyre.driver.error.PipelineException when no read is in flight
   */
  ReadCompletion await();

  /** A finished read if there is one, else null at once; never waits. */
  ReadCompletion poll();

  /** Waits for reads in flight, then closes open files and releases the reader's resources. */
  @Override
  void close();
}

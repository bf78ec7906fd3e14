package dev.vyre.observe.replay;

import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.wire.ControlLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The rerun sidecar of a replay log ({@link RerunSidecarFormat}, {@code FILE.rerun}): written
 * beside the log by a recorded run, entry {@code k} with record {@code k}, and the run's final
 * state once it finished, so the run can be re-run on another backend and compared. Written the
 * way {@link RingLog} is: each entry is in the file at once (a process that dies keeps it),
 * {@link #sync()} makes it durable against a machine crash, and the finished flag is written after
 * the final state it covers. Thread-safe: writes take turns.
 */
public final class RerunSidecar implements AutoCloseable {

  /** The file name suffix: the sidecar of {@code run.vrrl} is {@code run.vrrl.rerun}. */
  public static final String SUFFIX = ".rerun";

  /** What every read error asks for: a sidecar is only ever written by a recorded run. */
  private static final String RECORD_AGAIN = "record the program again with `vyre run --record FILE`, which writes FILE" + SUFFIX
      + " beside the log";

  /**
   * The settings a run was recorded with, which its re-run uses: the log's capacity, the idle
   * timeout in seconds, the program's task count, ring slots, authorized tenants, observable words.
   * Integers other than the capacity and timeout are u32.
   */
  public record Header(long capacity, long timeoutSeconds, int tasks, int slots, int tenants, int observables) {}

  /** The control words a run ended with that a re-run is compared on (u32 bit patterns). */
  public record FinalState(int doneCount, int faultCount, int epoch, int[] observables) {

    public FinalState {
      observables = observables.clone();
    }

    /** The words of a final control block: DONE_COUNT, FAULT_COUNT, EPOCH and {@code observables} observable words (0 past its end). */
    public static FinalState of(byte[] control, int observables) {
      MemorySegment words = MemorySegment.ofArray(control);
      int[] values = new int[observables];
      for (int i = 0; i < observables; i++) {
        values[i] = (int) ControlLayout.readObservable(words, i);
      }
      return new FinalState((int) ControlLayout.readDoneCount(words), (int) ControlLayout.readWord(words, ControlLayout.FAULT_COUNT),
          (int) ControlLayout.readEpoch(words), values);
    }

    @Override
    public int[] observables() {
      return observables.clone();
    }

    public int observable(int index) {
      return observables[index];
    }

    public int observableCount() {
      return observables.length;
    }
  }

  /**
   * A sidecar read back: its header, the entry at each record index (null where never written,
   * as many as the capacity), and the final state, null when the run did not finish.
   */
  public record Contents(Header header, List<RerunEntry> entries, FinalState finalState) {}

  private final FileChannel channel;
  private final Path path;
  private final Header header;
  private final ByteBuffer entryBuffer = ByteBuffer.allocateDirect(RerunSidecarFormat.ENTRY_BYTES);
  private final MemorySegment entry = MemorySegment.ofBuffer(entryBuffer);
  private boolean finished;

  private RerunSidecar(FileChannel channel, Path path, Header header) {
    this.channel = channel;
    this.path = path;
    this.header = header;
  }

  /** The sidecar beside the replay log {@code log}. */
  public static Path pathFor(Path log) {
    return log.resolveSibling(log.getFileName() + SUFFIX);
  }

  /**
   * Creates (or replaces) the sidecar at {@code path}: {@code header.capacity()} entries never
   * written and no final state.
   *
   * @throws IllegalArgumentException for sizes {@link RerunSidecarFormat#checkSizes} refuses
   * @throws ReplayLogException {@code Io} when the file system refuses
   */
  public static RerunSidecar create(Path path, Header header) {
    String wrong = RerunSidecarFormat.checkSizes(header.capacity(), Integer.toUnsignedLong(header.observables()));
    if (wrong != null) {
      throw new IllegalArgumentException(wrong);
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING);
    } catch (IOException e) {
      throw ReplayLogException.io("open", path.toString(), e);
    }
    RerunSidecar sidecar = new RerunSidecar(channel, path, header);
    try {
      // Zeros to the full length (entries never written), then the header: as a new RingLog.
      sidecar.write(ByteBuffer.allocate(1),
          RerunSidecarFormat.fileLength(header.capacity(), Integer.toUnsignedLong(header.observables())) - 1);
      sidecar.writeHeader(null);
      return sidecar;
    } catch (RuntimeException e) {
      try {
        channel.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  public Path path() {
    return path;
  }

  /** Writes the entry for log record {@code index}, the record the log's cursor pointed at when the task's record was appended. */
  public synchronized void write(long index, RerunEntry value) {
    if (index < 0 || index >= header.capacity()) {
      throw new IndexOutOfBoundsException("entry " + index + " of " + header.capacity());
    }
    RerunSidecarFormat.writeEntry(entry, value);
    write(entryBuffer.clear(), RerunSidecarFormat.entryOffset(index));
  }

  /**
   * The run finished with {@code finalControl}: writes its final observable words and counts, then
   * the flag that says they are there (once; a later call does nothing). Not synced: see {@link #sync()}.
   */
  public synchronized void finish(byte[] finalControl) {
    if (finished) {
      return;
    }
    FinalState end = FinalState.of(finalControl, header.observables());
    ByteBuffer trailer = ByteBuffer.allocate(4 * end.observableCount() + RerunSidecarFormat.TRAILER_CHECKSUM_BYTES);
    RerunSidecarFormat.writeObservables(MemorySegment.ofBuffer(trailer), end);
    write(trailer, RerunSidecarFormat.observablesOffset(header.capacity()));
    // The words first, then the header whose flag covers them, in one write: a process that dies
    // between the two leaves a sidecar that reads as a run that did not finish.
    writeHeader(end);
    finished = true;
  }

  /** Forces everything written so far to the storage device (fsync). */
  public synchronized void sync() {
    ReplayFiles.sync(channel, path);
  }

  @Override
  public synchronized void close() {
    ReplayFiles.close(channel, path);
  }

  private void writeHeader(FinalState end) {
    ByteBuffer bytes = ByteBuffer.allocate(RerunSidecarFormat.HEADER_BYTES);
    RerunSidecarFormat.writeHeader(MemorySegment.ofBuffer(bytes), header, end);
    write(bytes, 0);
  }

  private void write(ByteBuffer buffer, long position) {
    ReplayFiles.write(channel, path, buffer, position);
  }

  // ---------------------------------------------------------------- reading

  /**
   * Reads a sidecar without changing it.
   *
   * @throws InputException naming the file when it is not a {@code VRRS0002} sidecar (magic or
   *     version), its length does not match its sizes, or its header, an entry or its final state
   *     is damaged (a checksum that does not hold, a field out of range): never a value from a
   *     damaged part
   * @throws ReplayLogException {@code Io} when the file cannot be read
   */
  public static Contents read(Path path) {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
      long size = channel.size();
      MemorySegment file = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
      return decode(path.toString(), file);
    } catch (IOException e) {
      throw ReplayLogException.io("read", path.toString(), e);
    }
  }

  private static Contents decode(String source, MemorySegment file) {
    long size = file.byteSize();
    long magicBytes = Math.min(size, RerunSidecarFormat.MAGIC.length);
    if (size >= RerunSidecarFormat.MAGIC_V1.length
        && file.asSlice(0, magicBytes).mismatch(MemorySegment.ofArray(RerunSidecarFormat.MAGIC_V1)) < 0) {
      throw InputException.of(source, "a VRRS0001 rerun sidecar, written before sidecars had checksums; this vyre reads"
          + " VRRS0002 only, since an unchecked file could re-run damaged tasks", RECORD_AGAIN);
    }
    if (file.asSlice(0, magicBytes).mismatch(MemorySegment.ofArray(RerunSidecarFormat.MAGIC).asSlice(0, magicBytes)) >= 0
        || size == 0) {
      throw InputException.of(source, "not a rerun sidecar: it does not start with the magic \"VRRS0002\"", RECORD_AGAIN);
    }
    if (size < RerunSidecarFormat.HEADER_BYTES) {
      throw InputException.of(source, "is " + size + " bytes, shorter than the " + RerunSidecarFormat.HEADER_BYTES
          + "-byte header of a rerun sidecar: it was cut short", RECORD_AGAIN);
    }
    if (!RerunSidecarFormat.isKnownHeader(file)) {
      throw InputException.of(source, "rerun sidecar version " + Integer.toUnsignedString(RerunSidecarFormat.version(file))
          + ", this vyre reads version " + RerunSidecarFormat.VERSION, RECORD_AGAIN);
    }
    String damagedHeader = RerunSidecarFormat.checkHeader(file);
    if (damagedHeader != null) {
      throw InputException.of(source, "damaged rerun sidecar: its header (bytes 0.." + RerunSidecarFormat.HEADER_BYTES + ") has "
          + damagedHeader, RECORD_AGAIN);
    }
    Header header = RerunSidecarFormat.readHeader(file);
    long observables = Integer.toUnsignedLong(header.observables());
    String wrong = RerunSidecarFormat.checkSizes(header.capacity(), observables);
    if (wrong != null) {
      throw InputException.of(source, "damaged rerun sidecar: " + wrong, RECORD_AGAIN);
    }
    long expected = RerunSidecarFormat.fileLength(header.capacity(), observables);
    if (size != expected) {
      throw InputException.of(source, "is " + size + " bytes but a rerun sidecar of " + header.capacity() + " entries and "
          + observables + " observables has " + expected + " (64-byte header, " + RerunSidecarFormat.ENTRY_BYTES
          + " bytes per entry, 4 per observable word and 4 of checksum): it was cut short or extended", RECORD_AGAIN);
    }
    RerunEntry[] entries = new RerunEntry[(int) header.capacity()];
    for (int k = 0; k < entries.length; k++) {
      MemorySegment one = file.asSlice(RerunSidecarFormat.entryOffset(k), RerunSidecarFormat.ENTRY_BYTES);
      String damage = RerunSidecarFormat.checkEntry(one, header.tasks());
      if (damage != null) {
        throw InputException.of(source, "entry " + k + " (byte " + RerunSidecarFormat.entryOffset(k) + ") is damaged: " + damage,
            RECORD_AGAIN);
      }
      entries[k] = RerunSidecarFormat.entryMagic(one) == 0 ? null : RerunSidecarFormat.readEntry(one);
    }
    FinalState end = null;
    if (RerunSidecarFormat.isFinished(file)) {
      long at = RerunSidecarFormat.observablesOffset(header.capacity());
      MemorySegment trailer = file.asSlice(at);
      String damage = RerunSidecarFormat.checkTrailer(trailer, header.observables());
      if (damage != null) {
        throw InputException.of(source, "the final state (byte " + at + ") is damaged: " + damage, RECORD_AGAIN);
      }
      end = RerunSidecarFormat.readFinal(file, trailer, header.observables());
    }
    return new Contents(header, Collections.unmodifiableList(Arrays.asList(entries)), end);
  }
}

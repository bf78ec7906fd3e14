package dev.vyre.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dev.vyre.cli.conform.Json;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.HitList;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;

/**
 * How {@code vyre scan} prints each file's result: grep-like {@code path:offset:pattern} lines
 * (the path's and the pattern's bytes as they are), {@code path:count} lines, one JSON object
 * per match, the paths of the files that matched ({@code -l}) or did not ({@code -L}), as lines or
 * JSON objects, or nothing ({@code -q}). A file's error goes to stderr as
 * {@code vyre scan: path: error. Fix: ...}, after the matches found before it (with {@code -s}, not when the
 * file could not be opened or read). Matches are printed as the scan hands them on, a chunk at a
 * time ({@link ScanSink}), so nothing is held per match; once a file has what its format needs
 * (its first {@code -m} matches, or one match for {@code -l}, {@code -L} and {@code -q}) the scan
 * is told to read it no further. Each line reaches {@code out} in one write, so a buffer in front of
 * stdout, which passes on whole writes, never leaves stdout ending inside a line, however the
 * process ends; an interrupted scan keeps every match printed before the interrupt.
 * {@link ScanFileNames} says how a file is named ({@code -h}, {@code -Z}, {@code (standard input)});
 * a {@link HitContext} drops the matches that are not whole words ({@code -w}) before anything is
 * printed or counted and finds each match's line ({@code -n}).
 *
 * <p>Stdout's first failed write ends the output: {@link #done()} turns true, so that the caller
 * stops the scan, and {@link #failure()} holds the error.
 *
 * <p>JSON strings hold text, but paths and patterns are bytes. {@code "path"} and {@code "pattern"}
 * are always strings: the bytes themselves when they are valid UTF-8, else a lossy rendering with
 * U+FFFD for each invalid sequence, and then {@code "path_bytes"} or {@code "pattern_bytes"} follows
 * with the exact bytes in base64 (RFC 4648, padded), so nothing is lost and valid names and
 * patterns print as before.
 */
final class ScanOutput implements ScanSink, AutoCloseable {

  /**
   * Per file: each match (LINES, JSON), the count (COUNT), the path when the file is listed
   * (PATHS, JSON_PATHS), or nothing (QUIET).
   */
  enum Format { LINES, COUNT, JSON, PATHS, JSON_PATHS, QUIET }

  private final OutputStream out;
  private final PrintStream err;
  private final Format format;
  private final boolean listUnmatched;
  private final long maxCount;
  private final boolean noMessages;
  private final byte[][] patterns;
  private final JsonText[] patternText;
  private final JsonGenerator json;
  private final ScanFileNames names;
  private final HitContext context;
  /** Which matches count depends on each one (printed, or only whole words): the scan keeps hits. */
  private final boolean keepsHits;
  /** Digits of a number being printed, so that a match's line allocates nothing. */
  private final byte[] digits = new byte[20];
  /** The line being printed, handed to {@code out} whole; JSON is generated into it. */
  private final ByteArrayOutputStream lineBuffer = new ByteArrayOutputStream(256);
  /** The file being printed: its matches that counted so far, its second reading, why that failed. */
  private long reported;
  private HitContext.Reading reading;
  private String rereadError;
  private boolean interrupted;
  private IOException failure;
  private long matchedFiles;
  private long failedFiles;

  /**
   * @param listUnmatched PATHS and JSON_PATHS list the files without a match ({@code -L}), not
   *     those with one ({@code -l})
   * @param maxCount the matches of a file that count ({@code -m}): the first ones, by offset
   * @param noMessages leave out the errors of files that could not be opened or read ({@code -s})
   */
  ScanOutput(OutputStream out, PrintStream err, PatternSet patternSet, Format format, boolean listUnmatched,
      long maxCount, boolean noMessages) throws IOException {
    this(out, err, patternSet, format, listUnmatched, maxCount, noMessages, ScanFileNames.DEFAULT, null);
  }

  /**
   * @param names how files are named ({@code -H}, {@code -h}, {@code -Z}, stdin)
   * @param context what to read around the matches ({@code -w}, {@code -n}); null for nothing.
   *     With -w every format needs each file's hits.
   */
  ScanOutput(OutputStream out, PrintStream err, PatternSet patternSet, Format format, boolean listUnmatched,
      long maxCount, boolean noMessages, ScanFileNames names, HitContext context) throws IOException {
    this.names = names;
    this.context = context;
    this.out = out;
    this.err = err;
    this.format = format;
    this.listUnmatched = listUnmatched;
    this.maxCount = maxCount;
    this.noMessages = noMessages;
    this.keepsHits = format == Format.LINES || format == Format.JSON || context != null && context.words();
    this.patterns = new byte[patternSet.size()][];
    this.patternText = new JsonText[patternSet.size()];
    for (int id = 0; id < patterns.length; id++) {
      patterns[id] = patternSet.pattern(id);
      patternText[id] = format == Format.JSON ? JsonText.of(patterns[id]) : null;
    }
    this.json = format == Format.JSON || format == Format.JSON_PATHS ? Json.MAPPER.getFactory().createGenerator(lineBuffer)
        .configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false)
        .configure(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM, false)
        .configure(JsonWriteFeature.ESCAPE_NON_ASCII.mappedFeature(), false) : null;
    if (json != null) {
      json.setRootValueSeparator(null);
    }
  }

  /** Prints one file's result with all its matches at once ({@code hits} null when only counted). */
  synchronized void file(FileResult scanned) {
    if (keepsHits && scanned.hits() != null && scanned.hits().size() > 0) {
      found(scanned.file(), scanned.hits(), scanned.matches());
    }
    finished(scanned);
  }

  /**
   * Prints the matches of the file being printed that count, in offset order, up to its limit; with
   * only a count ({@code hits} null) looks at {@code total}. Returns whether the file is worth
   * scanning further.
   */
  @Override
  public synchronized boolean found(ScanFile file, HitList hits, long total) {
    if (interrupted || failure != null) {
      return false;
    }
    long limit = format == Format.LINES || format == Format.JSON || format == Format.COUNT ? maxCount
        : Math.min(1, maxCount);
    if (hits == null || !keepsHits) {
      return total < limit;
    }
    if (rereadError != null) {
      return false;
    }
    try {
      if (context != null && reading == null) {
        reading = context.open(file.location());
      }
    } catch (IOException e) {
      rereadError = rereadFailure(e);
      return false;
    }
    byte[] prefix = format == Format.LINES ? names.prefix(file.path()) : null;
    JsonText path = format == Format.JSON ? JsonText.of(names.bytes(file.path())) : null;
    try {
      for (int i = 0; i < hits.size() && reported < limit; i++) {
        long start = hits.start(i);
        int id = hits.patternId(i);
        long line;
        try {
          line = reading == null ? 0 : reading.locate(start, id);
        } catch (IOException e) {
          rereadError = rereadFailure(e);
          return false;
        }
        if (line < 0) {
          continue;
        }
        reported++;
        if (format == Format.LINES) {
          line(prefix, line, start, id);
        } else if (format == Format.JSON) {
          jsonLine(path, line, start, id);
        }
      }
    } catch (IOException e) {
      failure = e;
      return false;
    }
    return reported < limit;
  }

  /**
   * Without the bytes no match is known to be a whole word or to have a line: the file is an error
   * (its matches printed before stay printed).
   */
  private static String rereadFailure(IOException e) {
    return "read failed when read again for -n or -w (" + e.getMessage() + ")";
  }

  /** Prints the end of a file's result: its count, its path, its error; called in file order. */
  @Override
  public synchronized void finished(FileResult scanned) {
    String rereadFailed = rereadError;
    long reportedMatches = reported;
    endFile();
    if (interrupted || failure != null) {
      return;
    }
    FileResult result = rereadFailed == null ? scanned
        : new FileResult(scanned.file(), scanned.inputId(), reportedMatches, null, rereadFailed, true, false);
    long matches = keepsHits ? reportedMatches : Math.min(result.matches(), maxCount);
    matchedFiles += matches > 0 ? 1 : 0;
    Path path = result.file().path();
    try {
      switch (format) {
        case COUNT -> {
          // As grep -c: a file that could not be opened has no count, one that failed part-way its count so far.
          if (!result.openFailed()) {
            lineBuffer.writeBytes(names.prefix(path));
            lineBuffer.writeBytes((matches + "\n").getBytes(StandardCharsets.US_ASCII));
            endLine();
          }
        }
        case PATHS -> {
          if (listed(result, matches)) {
            out.write(names.listed(path));
          }
        }
        case JSON_PATHS -> {
          if (listed(result, matches)) {
            json.writeStartObject();
            JsonText.of(names.bytes(path)).write(json, "path");
            json.writeEndObject();
            json.writeRaw('\n');
            json.flush();
            endLine();
          }
        }
        case LINES, JSON, QUIET -> { }
      }
    } catch (IOException e) {
      failure = e;
      return;
    }
    failedFiles += result.failed() ? 1 : 0;
    if (result.failed() && !(noMessages && result.unreadable())) {
      flush();
      err.println(ScanFileErrors.message(names.text(path), result.error()));
    }
  }

  /** Forgets the file being printed, closing its second reading. */
  private void endFile() {
    reported = 0;
    rereadError = null;
    if (reading != null) {
      try {
        reading.close();
      } catch (IOException ignored) {
        // Only read from: closing it loses nothing.
      }
      reading = null;
    }
  }

  /**
   * Whether nothing more is worth scanning: stdout failed, or with -q a file matched (the answer
   * is known).
   */
  synchronized boolean done() {
    return failure != null || format == Format.QUIET && matchedFiles > 0;
  }

  /** Stdout's first failed write, or null. */
  synchronized IOException failure() {
    return failure;
  }

  /** How many of the files printed could not be read whole (or, for -n and -w, again). */
  synchronized long failedFiles() {
    return failedFiles;
  }

  /** Whether a file had a match that counts (a whole word with -w; none with -m 0). */
  synchronized boolean matched() {
    return matchedFiles > 0;
  }

  /**
   * -l lists a file with a match; -L one without, unless it failed: a file not read to its end is
   * not known to have none.
   */
  private boolean listed(FileResult result, long matches) {
    return listUnmatched ? matches == 0 && !result.failed() : matches > 0;
  }

  /** One match: prefix, then line: with -n, offset:pattern. */
  private void line(byte[] prefix, long lineNumber, long start, int id) throws IOException {
    lineBuffer.writeBytes(prefix);
    if (context != null && context.lines()) {
      writeNumber(lineNumber);
      lineBuffer.write(':');
    }
    writeNumber(start);
    lineBuffer.write(':');
    lineBuffer.writeBytes(patterns[id]);
    lineBuffer.write('\n');
    endLine();
  }

  /** Hands the line to {@code out} in one write. */
  private void endLine() throws IOException {
    try {
      lineBuffer.writeTo(out);
    } finally {
      lineBuffer.reset();
    }
  }

  /** A non-negative number in decimal, without a String. */
  private void writeNumber(long value) {
    int at = digits.length;
    long rest = value;
    do {
      digits[--at] = (byte) ('0' + rest % 10);
      rest /= 10;
    } while (rest > 0);
    lineBuffer.write(digits, at, digits.length - at);
  }

  private void jsonLine(JsonText path, long line, long start, int id) throws IOException {
    json.writeStartObject();
    path.write(json, "path");
    if (context != null && context.lines()) {
      json.writeNumberField("line", line);
    }
    json.writeNumberField("offset", start);
    json.writeNumberField("pattern_id", id);
    patternText[id].write(json, "pattern");
    json.writeEndObject();
    json.writeRaw('\n');
    json.flush();
    endLine();
  }

  /** Bytes as a JSON string field, with their base64 in a {@code _bytes} sibling when they are not UTF-8. */
  private record JsonText(String text, String base64) {

    static JsonText of(byte[] bytes) {
      try {
        return new JsonText(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString(), null);
      } catch (CharacterCodingException notUtf8) {
        return new JsonText(new String(bytes, StandardCharsets.UTF_8), Base64.getEncoder().encodeToString(bytes));
      }
    }

    void write(JsonGenerator json, String field) throws IOException {
      json.writeStringField(field, text);
      if (base64 != null) {
        json.writeStringField(field + "_bytes", base64);
      }
    }
  }

  /** Writes out what is buffered (per file when stdout is the terminal the progress line is on). */
  synchronized void flush() {
    if (failure != null) {
      return;
    }
    try {
      out.flush();
    } catch (IOException e) {
      failure = e;
    }
  }

  /**
   * On Ctrl-C or SIGTERM (from a shutdown hook, while the scan may still print): flushes the files
   * printed so far, after the one being printed, and prints nothing more.
   */
  synchronized void interrupted() {
    if (!interrupted) {
      interrupted = true;
      flush();
    }
  }

  /** Flushes what is buffered; stdout itself stays open. */
  @Override
  public synchronized void close() {
    endFile();
    if (!interrupted) {
      flush();
    }
  }
}

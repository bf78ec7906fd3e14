package dev.vyre.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dev.vyre.cli.conform.Json;
import dev.vyre.runtime.scan.FileResult;
import dev.vyre.runtime.scan.HitList;
import dev.vyre.runtime.scan.PatternSet;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * How {@code vyre scan} prints each file's result: grep-like {@code path:offset:pattern} lines
 * (the pattern's bytes as given), {@code path:count} lines, or one JSON object per match. A
 * file's error goes to stderr as {@code vyre scan: path: error}, after the matches found before it.
 * An interrupted scan keeps every file printed before the interrupt, whole.
 */
final class ScanOutput implements AutoCloseable {

  enum Format { LINES, COUNT, JSON }

  private final OutputStream out;
  private final PrintStream err;
  private final Format format;
  private final byte[][] patterns;
  private final String[] patternText;
  private final JsonGenerator json;
  private boolean interrupted;

  ScanOutput(OutputStream out, PrintStream err, PatternSet patternSet, Format format) throws IOException {
    this.out = out;
    this.err = err;
    this.format = format;
    this.patterns = new byte[patternSet.size()][];
    this.patternText = new String[patternSet.size()];
    for (int id = 0; id < patterns.length; id++) {
      patterns[id] = patternSet.pattern(id);
      patternText[id] = new String(patterns[id], StandardCharsets.UTF_8);
    }
    this.json = format == Format.JSON ? Json.MAPPER.getFactory().createGenerator(out)
        .configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false)
        .configure(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM, false)
        .configure(JsonWriteFeature.ESCAPE_NON_ASCII.mappedFeature(), false) : null;
    if (json != null) {
      json.setRootValueSeparator(null);
    }
  }

  /** Prints one file's result; called in file order. */
  synchronized void file(FileResult result) {
    if (interrupted) {
      return;
    }
    try {
      String path = result.file().path().toString();
      switch (format) {
        case COUNT -> out.write((path + ":" + result.matches() + "\n").getBytes(StandardCharsets.UTF_8));
        case LINES -> lines(path, result.hits());
        case JSON -> jsonLines(path, result.hits());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (result.failed()) {
      flush();
      err.println("vyre scan: " + result.file().path() + ": " + result.error());
    }
  }

  private void lines(String path, HitList hits) throws IOException {
    byte[] prefix = (path + ":").getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < hits.size(); i++) {
      out.write(prefix);
      out.write(Long.toString(hits.start(i)).getBytes(StandardCharsets.US_ASCII));
      out.write(':');
      out.write(patterns[hits.patternId(i)]);
      out.write('\n');
    }
  }

  private void jsonLines(String path, HitList hits) throws IOException {
    for (int i = 0; i < hits.size(); i++) {
      json.writeStartObject();
      json.writeStringField("path", path);
      json.writeNumberField("offset", hits.start(i));
      json.writeNumberField("pattern_id", hits.patternId(i));
      json.writeStringField("pattern", patternText[hits.patternId(i)]);
      json.writeEndObject();
      json.writeRaw('\n');
    }
    json.flush();
  }

  /** Writes out what is buffered (per file when stdout is the terminal the progress line is on). */
  void flush() {
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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
    if (!interrupted) {
      flush();
    }
  }
}

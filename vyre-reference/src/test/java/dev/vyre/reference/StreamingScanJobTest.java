package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.dfa.Hit;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.FileResult;
import dev.vyre.scan.HitList;
import dev.vyre.scan.NaiveMatcher;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import dev.vyre.scan.ScanSink;
import dev.vyre.scan.ScanSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ScanJob#run(List, ScanSink)}: matches reach the sink chunk by chunk, in file and offset
 * order, each file's result after its matches; a sink that has its answer stops a file early, and
 * the job gives back its buffers and open files as it goes.
 */
class StreamingScanJobTest {

  private static Megakernel kernel;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    kernel = TestBackends.scanKernel();
  }

  @AfterAll
  static void stop() {
    kernel.close();
  }

  /** What a sink saw, checking the order it was promised as it goes. */
  private static final class Recording implements ScanSink {
    final List<List<Hit>> files = new ArrayList<>();
    final List<FileResult> results = new ArrayList<>();
    final List<Integer> foundCalls = new ArrayList<>();
    private final List<ScanFile> order;
    private List<Hit> current = new ArrayList<>();
    private int calls;

    Recording(List<ScanFile> order) {
      this.order = order;
    }

    @Override
    public boolean found(ScanFile file, HitList hits, long total) {
      assertEquals(order.get(results.size()), file, "matches of the next file to finish only");
      for (int i = 0; i < hits.size(); i++) {
        Hit hit = new Hit(results.size(), hits.start(i), hits.patternId(i));
        if (!current.isEmpty()) {
          Hit last = current.getLast();
          assertTrue(last.start() < hit.start() || last.start() == hit.start() && last.patternId() < hit.patternId(),
              last + " before " + hit);
        }
        current.add(hit);
      }
      assertEquals(current.size(), total);
      calls++;
      return true;
    }

    @Override
    public void finished(FileResult result) {
      assertEquals(order.get(results.size()), result.file());
      assertNull(result.hits(), "streamed");
      assertEquals(current.size(), result.matches());
      files.add(current);
      foundCalls.add(calls);
      results.add(result);
      current = new ArrayList<>();
      calls = 0;
    }
  }

  /**
   * Periodic text where a long pattern often ends in the next chunk yet starts before a short one
   * of this chunk ends, so the hits carried over between chunks are exercised; small chunks, three
   * buffers, reads finishing out of order.
   */
  @Test
  void matchesArriveChunkByChunkInFileAndOffsetOrder() throws IOException {
    Random random = new Random(11);
    List<byte[]> contents = List.of(text(random, 20_000), text(random, 300), new byte[0], text(random, 150),
        text(random, 31_000));
    List<ScanFile> files = new ArrayList<>();
    for (int i = 0; i < contents.size(); i++) {
      files.add(new ScanFile(Files.write(dir.resolve("f" + i), contents.get(i)), contents.get(i).length));
    }
    PatternSet patterns = PatternSet.of(List.of(bytes("bcdefabc"), bytes("f"), bytes("cd"), bytes("abcdef")), false, "t");
    for (boolean staged : new boolean[] {false, true}) {
      for (boolean parallel : new boolean[] {false, true}) {
        Recording sink = new Recording(files);
        ScanSummary summary;
        try (ScanJob job = new ScanJob(kernel, AhoCorasickCompiler.compile(patterns),
            new ScanOptions(512, 64, 3, true, staged, parallel))) {
          summary = job.run(files, sink);
        }
        String mode = "staged " + staged + ", parallel " + parallel;
        assertEquals(files.size(), sink.results.size(), mode);
        for (int i = 0; i < files.size(); i++) {
          assertEquals(NaiveMatcher.findAll(patterns, contents.get(i), i), sink.files.get(i), mode + ", file " + i);
        }
        assertTrue(sink.foundCalls.getFirst() > 10, "a chunk at a time: " + sink.foundCalls);
        assertEquals(contents.stream().mapToLong(c -> c.length).sum(), summary.bytes(), mode);
      }
    }
  }

  /**
   * 80 dense files, more than the io_uring reader's 64 open-file slots, each stopped by the sink at
   * its first chunk of matches: every file is passed, each read little of, and the job runs again
   * (its buffers and files came back).
   */
  @Test
  void aSinkWithItsAnswerStopsEachFileEarlyAndGivesItsBuffersAndFilesBack() throws IOException {
    int size = 64 << 10;
    List<ScanFile> files = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      files.add(new ScanFile(Files.write(dir.resolve("x" + i), "x".repeat(size).getBytes(StandardCharsets.US_ASCII)),
          size));
    }
    PatternSet x = PatternSet.of(List.of(bytes("x")), false, "t");
    for (boolean keepHits : new boolean[] {true, false}) {
      try (ScanJob job = new ScanJob(kernel, AhoCorasickCompiler.compile(x), new ScanOptions(1024, 256, 4, keepHits))) {
        for (int round = 0; round < 2; round++) {
          List<FileResult> results = new ArrayList<>();
          ScanSummary summary = job.run(files, new ScanSink() {
            @Override
            public boolean found(ScanFile file, HitList hits, long total) {
              return total < 3;
            }

            @Override
            public void finished(FileResult result) {
              results.add(result);
            }
          });
          String mode = "keep hits " + keepHits + ", round " + round;
          assertEquals(files.size(), results.size(), mode);
          for (FileResult result : results) {
            assertNull(result.error(), mode);
            assertTrue(result.matches() >= 3 && result.matches() <= 4 * 1024, mode + ": " + result.matches());
          }
          assertTrue(summary.bytes() <= files.size() * 4L * 1024, mode + ": " + summary.bytes() + " bytes scanned");
        }
      }
    }
  }

  /** "abcdef" over and over, with a random byte of the alphabet or a newline now and then (PackReadersTest's too). */
  static byte[] text(Random random, int length) {
    byte[] text = new byte[length];
    for (int i = 0; i < length; i++) {
      text[i] = (byte) (random.nextInt(20) == 0 ? "abcdef\n".charAt(random.nextInt(7)) : "abcdef".charAt(i % 6));
    }
    return text;
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}

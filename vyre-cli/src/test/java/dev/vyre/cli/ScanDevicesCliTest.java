package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vyre scan --devices}: one kernel per device fed by one reader prints byte for byte what
 * one device prints, in every output mode, on the reference backend (whose devices are labels of
 * the CPU, so this runs anywhere); and the options refuse what names no devices.
 */
class ScanDevicesCliTest {

  private static final String[] TUNING = {"--chunk-size", "4096", "--task-size", "1024", "--buffers", "2"};

  @TempDir Path dir;

  /** 120 small files, three of many chunks, dense matches; "ab", "ba" and "needle" as patterns. */
  private Path tree() throws IOException {
    Path tree = Files.createDirectory(dir.resolve("tree"));
    Random random = new Random(226);
    for (int f = 0; f < 123; f++) {
      int size = f % 40 == 5 ? 50_000 + random.nextInt(9_000) : f % 17 == 0 ? 0 : random.nextInt(700);
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < size; i++) {
        text.append("aabb\nneedle".charAt(random.nextInt(11)));
      }
      Files.writeString(tree.resolve(String.format("f%03d.txt", f)), text, StandardCharsets.US_ASCII);
    }
    return tree;
  }

  @Test
  void severalDevicesPrintWhatOneDevicePrints() throws IOException {
    Path tree = tree();
    List<List<String>> modes = List.of(List.of(), List.of("-c"), List.of("-l"), List.of("-L"), List.of("-m", "5"),
        List.of("-c", "-m", "3"), List.of("--json"), List.of("-i", "-w"));
    for (List<String> mode : modes) {
      CliRun one = scan(mode, List.of(), tree);
      for (String devices : new String[] {"0,1", "2,0,1"}) {
        CliRun several = scan(mode, List.of("--devices", devices), tree);
        assertEquals(one.status(), several.status(), mode + " on " + devices + ": " + several.err());
        assertEquals(one.out(), several.out(), mode + " on devices " + devices);
        assertEquals(one.err(), several.err(), mode + " on devices " + devices);
      }
    }
    assertTrue(scan(List.of(), List.of(), tree).out().lines().count() > 10_000, "dense matches");
  }

  @Test
  void verboseNamesEachDevicesKernel() throws IOException {
    CliRun run = scan(List.of("--verbose"), List.of("--devices", "0,3"), tree());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.err().contains("kernel: reference: ") && run.err().contains("kernel: reference (device 3"), run.err());
    assertTrue(run.err().contains("2 buffers per device"), run.err());
  }

  @Test
  void devicesAllOnTheReferenceBackendIsItsOneDevice() throws IOException {
    Path tree = tree();
    assertEquals(scan(List.of("-c"), List.of(), tree).out(), scan(List.of("-c"), List.of("--devices", "all"), tree).out());
    assertEquals(scan(List.of("-c"), List.of(), tree).out(), scan(List.of("-c"), List.of("--device", "1"), tree).out());
  }

  @Test
  void devicesThatNameNoDevicesAreRefused() throws IOException {
    Path tree = tree();
    for (List<String> bad : List.of(List.of("--devices", "0,0"), List.of("--devices", "1,x"), List.of("--devices", ""),
        List.of("--device", "-1"), List.of("--device", "0", "--devices", "0,1"))) {
      CliRun run = scan(List.of(), bad, tree);
      assertEquals(2, run.status(), bad + ": " + run.err());
      assertTrue(run.err().startsWith("vyre: ") && run.err().contains("Fix: "), bad + ": " + run.err());
      assertEquals("", run.out(), bad.toString());
    }
  }

  private static CliRun scan(List<String> mode, List<String> devices, Path tree) {
    List<String> args = new ArrayList<>(List.of(TUNING));
    args.addAll(mode);
    args.addAll(devices);
    args.add("-e");
    args.add("ab");
    args.add("-e");
    args.add("ba");
    args.add("-e");
    args.add("needle");
    args.add(tree.toString());
    return CliRun.scanOnReference(args.toArray(String[]::new));
  }
}

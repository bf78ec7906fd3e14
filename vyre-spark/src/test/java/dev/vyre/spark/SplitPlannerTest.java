package dev.vyre.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SplitPlannerTest {

  @Test
  void largeFilesAreCutIntoSplitsAndSmallOnesShareAPartition(@TempDir Path dir) throws IOException {
    Files.write(dir.resolve("a"), new byte[25]);
    Files.write(dir.resolve("b"), new byte[4]);
    Files.write(dir.resolve("c"), new byte[5]);
    Files.write(dir.resolve("d"), new byte[0]);
    String a = dir.resolve("a").toString();
    String b = dir.resolve("b").toString();
    String c = dir.resolve("c").toString();
    String d = dir.resolve("d").toString();
    assertEquals(List.of(
        List.of(new FileSplit(a, 25, 0, 10)),
        List.of(new FileSplit(a, 25, 10, 20)),
        List.of(new FileSplit(a, 25, 20, 25), new FileSplit(b, 4, 0, 4)),
        List.of(new FileSplit(c, 5, 0, 5), new FileSplit(d, 0, 0, 0))),
        SplitPlanner.partitions(List.of(dir.toString()), 10));
  }

  @Test
  void aPathThatCannotBeListedFailsThePlan(@TempDir Path dir) {
    InputException e = assertThrows(InputException.class,
        () -> SplitPlanner.partitions(List.of(dir.resolve("missing").toString()), 10));
    assertTrue(e.getMessage().contains("No such file or directory") && e.getMessage().contains("Fix: "), e.getMessage());
    assertThrows(InputException.class, () -> SplitPlanner.partitions(List.of(dir.toString()), 0));
  }
}

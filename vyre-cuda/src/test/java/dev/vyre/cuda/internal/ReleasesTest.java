package dev.vyre.cuda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A failed session constructor, or a close whose first free fails, still releases everything else. */
class ReleasesTest {

  @Test
  void releasesRunNewestFirstAndOnlyOnce() {
    List<String> log = new ArrayList<>();
    Releases releases = new Releases();
    releases.add(() -> log.add("context"));
    releases.add(() -> log.add("module"));
    releases.add(() -> log.add("stream"));
    releases.releaseAll();
    releases.releaseAll();
    assertEquals(List.of("stream", "module", "context"), log);
  }

  @Test
  void aFailingStepDoesNotStopTheOthers() {
    List<String> log = new ArrayList<>();
    Releases releases = new Releases();
    releases.add(() -> log.add("context"));
    releases.add(() -> {
      throw new IllegalStateException("cuModuleUnload failed");
    });
    releases.add(() -> log.add("stream"));
    releases.add(() -> {
      throw new IllegalStateException("cuMemFree_v2 failed");
    });
    IllegalStateException thrown = assertThrows(IllegalStateException.class, releases::releaseAll);
    assertEquals("cuMemFree_v2 failed", thrown.getMessage());
    assertEquals("cuModuleUnload failed", thrown.getSuppressed()[0].getMessage());
    assertEquals(List.of("stream", "context"), log);
  }

  /** The constructor's pattern: an NVRTC error after the context retain releases the retain and keeps the error. */
  @Test
  void aConstructorFailureReleasesWhatWasAllocatedAndKeepsItsError() {
    List<String> log = new ArrayList<>();
    Releases releases = new Releases();
    RuntimeException compileError = new RuntimeException("nvrtcCompileProgram failed");
    releases.add(() -> log.add("release context"));
    releases.add(() -> {
      throw new IllegalStateException("secondary");
    });
    RuntimeException thrown = assertThrows(RuntimeException.class, () -> {
      try {
        throw compileError;
      } catch (RuntimeException e) {
        releases.releaseAfter(e);
        throw e;
      }
    });
    assertSame(compileError, thrown);
    assertEquals("secondary", thrown.getSuppressed()[0].getMessage());
    assertEquals(List.of("release context"), log);
  }
}

package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

class TelemetrySamplerTest {

  @Test
  void firstSampleHasNoWatchdogAndTheSecondFlagsAStall() {
    FakeSource source = new FakeSource();
    source.stuck();
    TelemetrySampler sampler = new TelemetrySampler(source);
    TelemetrySample first = sampler.sample();
    assertNull(first.watchdog());
    assertFalse(first.stalled());
    TelemetrySample second = sampler.sample();
    assertTrue(second.stalled());
    assertEquals(1, second.stalledSamples());
    assertEquals(2, sampler.sample().stalledSamples());
    assertEquals(2, sampler.totalStalledSamples());
    assertEquals(3, sampler.latest().sequence());
  }

  @Test
  void progressEndsTheStall() {
    FakeSource source = new FakeSource();
    source.stuck();
    TelemetrySampler sampler = new TelemetrySampler(source);
    sampler.sample();
    assertTrue(sampler.sample().stalled());
    source.finish();
    source.done(1);
    TelemetrySample recovered = sampler.sample();
    assertFalse(recovered.stalled());
    assertEquals(1, recovered.watchdog().doneDelta());
    assertEquals(0, recovered.stalledSamples());
  }

  @Test
  void doneCounterWrapStartsANewEpochInsteadOfFailing() {
    FakeSource source = new FakeSource();
    source.done(-1);
    TelemetrySampler sampler = new TelemetrySampler(source);
    sampler.sample();
    source.done(2);
    assertNull(sampler.sample().watchdog());
    assertNotNull(sampler.sample().watchdog());
  }

  @Test
  void readsHeartbeatFaultsAndKernelState() {
    FakeSource source = new FakeSource();
    source.heartbeat(-2);
    TelemetrySampler sampler = new TelemetrySampler(source);
    TelemetrySample first = sampler.sample();
    assertEquals(0xFFFF_FFFEL, first.heartbeat());
    assertEquals(0, first.heartbeatDelta());
    assertTrue(first.kernelRunning());
    source.heartbeat(3);
    assertEquals(5, sampler.sample().heartbeatDelta());
  }

  @Test
  void malformedSnapshotIsATypedErrorAndKeepsThePreviousState() {
    FakeSource good = new FakeSource();
    good.stuck();
    TelemetrySampler sampler = new TelemetrySampler(new TelemetrySource() {
      int calls;

      @Override
      public String name() {
        return "flaky";
      }

      @Override
      public byte[] controlSnapshot() {
        return calls++ == 1 ? new byte[3] : good.controlSnapshot();
      }

      @Override
      public byte[] ringSnapshot() {
        return good.ringSnapshot();
      }
    });
    sampler.sample();
    assertThrows(PipelineException.class, sampler::sample);
    assertTrue(sampler.sample().stalled());
  }

  @Test
  void backgroundSamplingFeedsListenersUntilClosed() throws InterruptedException {
    FakeSource source = new FakeSource();
    CountDownLatch samples = new CountDownLatch(3);
    try (TelemetrySampler sampler = new TelemetrySampler(source)) {
      sampler.addListener(sample -> samples.countDown());
      sampler.start(Duration.ofMillis(1));
      assertThrows(PipelineException.class, () -> sampler.start(Duration.ofMillis(1)));
      assertTrue(samples.await(30, TimeUnit.SECONDS));
    }
  }

  @Test
  void emitsJfrSampleAndStallEvents() throws IOException {
    FakeSource source = new FakeSource();
    source.stuck();
    TelemetrySampler sampler = new TelemetrySampler(source);
    Path file = Files.createTempFile("vyre-telemetry", ".jfr");
    try (Recording recording = new Recording()) {
      recording.enable("dev.vyre.TelemetrySample");
      recording.enable("dev.vyre.KernelStall");
      recording.start();
      sampler.sample();
      sampler.sample();
      recording.stop();
      recording.dump(file);
      List<RecordedEvent> events = new ArrayList<>(RecordingFile.readAllEvents(file));
      assertEquals(2, events.stream().filter(e -> e.getEventType().getName().equals("dev.vyre.TelemetrySample")).count());
      RecordedEvent stall = events.stream().filter(e -> e.getEventType().getName().equals("dev.vyre.KernelStall"))
          .findFirst().orElseThrow();
      assertEquals("fake", stall.getString("kernel"));
      assertEquals(1, stall.getLong("queueDepth"));
      assertEquals(1, stall.getLong("stalledSamples"));
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** Micrometer is optional: the sampler must load and run in a class loader that cannot see it. */
  @Test
  void loadsAndSamplesWithoutMicrometer() throws Exception {
    URL[] classPath = java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .map(entry -> {
          try {
            return Path.of(entry).toUri().toURL();
          } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException(e);
          }
        }).toArray(URL[]::new);
    try (URLClassLoader withoutMicrometer = new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader()) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith("io.micrometer.")) {
          throw new ClassNotFoundException(name + " is hidden by this test");
        }
        return super.loadClass(name, resolve);
      }
    }) {
      Class<?> sampler = Class.forName(TelemetrySampler.class.getName(), true, withoutMicrometer);
      Class<?> source = Class.forName(FakeSource.class.getName(), true, withoutMicrometer);
      var constructor = source.getDeclaredConstructor();
      constructor.setAccessible(true);
      Object instance = sampler.getConstructor(Class.forName(TelemetrySource.class.getName(), true, withoutMicrometer), int[].class)
          .newInstance(constructor.newInstance(), new int[0]);
      assertNotNull(sampler.getMethod("sample").invoke(instance));
      assertThrows(NoClassDefFoundError.class,
          () -> Class.forName(TelemetryMeterBinder.class.getName(), true, withoutMicrometer));
    }
  }
}

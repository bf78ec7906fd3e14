package dev.vyre.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.io.IoRequestPump;
import dev.vyre.io.LoadOpcode;
import dev.vyre.runtime.Megakernel;
import dev.vyre.runtime.Priority;
import dev.vyre.runtime.Task;
import dev.vyre.runtime.TaskBatch;
import dev.vyre.runtime.TaskResult;
import dev.vyre.runtime.spi.ResourcePlacement;
import dev.vyre.runtime.spi.UserOpcode;
import dev.vyre.runtime.tenant.Tenant;
import dev.vyre.runtime.tenant.TenantRegistry;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Using it from Java" snippets, as written there (backend "auto" is the reference
 * backend on a machine without a GPU), so the first code a user copies keeps compiling and doing
 * what the README says.
 */
class ReadmeExamplesTest {

  @Test
  void theFirstSnippetAddsToAControlWordAndPublishesABatch() throws Exception {
    long observable0;
    long done;
    try (Megakernel kernel = Megakernel.builder().backend("auto").slots(4096).tenants(2).bootstrap()) {
      TaskResult r = kernel.submit(Task.of(Opcodes.ATOMIC_ADD, 5, 160)).get();   // control[160] += 5
      TaskBatch batch = new TaskBatch(256);                                       // allocation-free path
      for (int i = 0; i < 256; i++) batch.add3(0, Opcodes.NOP, 0, 0, 0);
      kernel.publish(batch);                                                      // one doorbell update
      kernel.drain(Duration.ofSeconds(5));
      assertEquals(SlotStatus.DONE, r.status());
      observable0 = kernel.observable(0);
      done = kernel.doneCount();
    }
    assertEquals(5, observable0, "control[160] is observable 0");
    assertEquals(257, done);
  }

  @Test
  void theTenantSnippetRunsTheTenantsOwnOpcode() {
    AtomicInteger ran = new AtomicInteger();
    UserOpcode myHandler = UserOpcode.java(0x4010_0007, "tenant 1's local 7", slot -> {
      ran.incrementAndGet();
      return SlotLayout.STATUS_DONE;
    });
    try (Megakernel kernel = Megakernel.builder().backend("auto").tenants(3)
        .userOpcode(myHandler).bootstrap()) {                     // myHandler: opcode 0x4010_0007, tenant 1's local 7
      Tenant tenant = TenantRegistry.of(kernel).registerWithBackpressure("ingest", 1024);
      tenant.publish(Priority.NORMAL, 7, 42);                     // TenantError.Backpressure at 1024 in flight
      TaskBatch batch = new TaskBatch(256);
      for (int i = 0; i < 256; i++) tenant.add(batch, 7, i);
      tenant.publish(batch);                                      // one doorbell; counted whole against the cap
      tenant.quiesce(1_000_000);                                  // every task it published has finished
    }
    assertEquals(257, ran.get());
  }

  @Test
  void theLoadSnippetReadsAFileRangeIntoAResource(@TempDir Path dir) throws Exception {
    byte[] content = new byte[16_384];
    new java.util.Random(3).nextBytes(content);
    Files.write(dir.resolve("data.bin"), content);
    byte[] loaded = new byte[4096];
    TaskResult result;
    try (Megakernel kernel = Megakernel.builder().backend("auto").userOpcode(LoadOpcode.of(0x7E01)).bootstrap()) {
      int source = IoRequestPump.of(kernel).open(dir.resolve("data.bin"));                     // a file handlers may read
      int page = kernel.allocateResource(4096, ResourcePlacement.HOST_MAPPED);
      TaskResult r = kernel.submit(LoadOpcode.task(0x7E01, source, page, 8192, 4096)).get();  // bytes 8192.. into page
      result = r;
      kernel.readResource(page, 0, java.lang.foreign.MemorySegment.ofArray(loaded));
    }
    assertEquals(SlotStatus.DONE, result.status());
    assertArrayEquals(Arrays.copyOfRange(content, 8192, 12_288), loaded);
  }
}

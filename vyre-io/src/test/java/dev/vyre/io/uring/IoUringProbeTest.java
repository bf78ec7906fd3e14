package dev.vyre.io.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.PipelineException;
import dev.vyre.io.IoUringAvailability;
import org.junit.jupiter.api.Test;

class IoUringProbeTest {

  @Test
  void probesThisMachineAndSaysWhy() {
    IoUringAvailability availability = IoUringProbe.probe();
    System.out.println("io_uring on this machine: " + availability);
    assertTrue(availability.available() ? availability.detail().startsWith("io_uring available")
        : availability.detail().contains("Fix: "), availability.detail());
  }

  @Test
  void explainsEachRefusal() {
    assertEquals("io_uring unavailable: the kernel has no io_uring (ENOSYS: older than 5.1, or built without it). "
        + "Fix: allow io_uring (kernel 5.6+, no seccomp block, kernel.io_uring_disabled=0) or rely on the FileChannel "
        + "reader, which is used automatically",
        IoUringProbe.explain(PipelineException.ioUringSyscall("io_uring_setup", Errno.ENOSYS, "x")));
    assertTrue(IoUringProbe.explain(PipelineException.ioUringSyscall("io_uring_setup", Errno.EPERM, "x"))
        .contains("io_uring is blocked (EPERM: a seccomp filter"));
    assertTrue(IoUringProbe.explain(PipelineException.ioUringSyscall("io_uring_register(X)", Errno.EINVAL, "x"))
        .contains("EINVAL in io_uring_register(X): Linux 5.6 or newer is needed"));
    assertTrue(IoUringProbe.explain(PipelineException.ioUringSyscall("io_uring_register(X)", Errno.ENOMEM, "x"))
        .contains("ulimit -l"));
    assertEquals(PipelineException.notLinux().getMessage(), IoUringProbe.explain(PipelineException.notLinux()));
  }
}

package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vyre.driver.error.PipelineException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

class FileErrorsTest {

  @Test
  void ioUringErrnosAndFileChannelExceptionsGiveTheSameReasons() {
    assertEquals("No such file or directory", FileErrors.reason(PipelineException.ioUringSyscall("open(f)", 2, "x")));
    assertEquals("Permission denied", FileErrors.reason(PipelineException.ioUringSyscall("open(f)", 13, "x")));
    assertEquals("Is a directory", FileErrors.reason(PipelineException.ioUringSyscall("read", 21, "x")));
    // A FIFO swapped in after the walk: the readers' open refuses it with ESPIPE rather than wait.
    assertEquals("not a regular file (a FIFO or a socket, which has no offsets to read at)",
        FileErrors.reason(PipelineException.ioUringSyscall("open(f)", 29, "x")));
    assertEquals("No such file or directory",
        FileErrors.reason(PipelineException.backend("cannot open f", new NoSuchFileException("f"))));
    assertEquals("Permission denied",
        FileErrors.reason(PipelineException.backend("cannot open f", new AccessDeniedException("f"))));
    assertEquals("Is a directory", FileErrors.reason(PipelineException.backend("read", new IOException("Is a directory"))));
    PipelineException other = PipelineException.ioUringSyscall("read", 99, "check it");
    assertEquals(other.getMessage(), FileErrors.reason(other));
    PipelineException plain = PipelineException.backend("plain");
    assertEquals(plain.getMessage(), FileErrors.reason(plain));
  }
}

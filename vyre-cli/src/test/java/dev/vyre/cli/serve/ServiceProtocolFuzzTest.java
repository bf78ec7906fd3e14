package dev.vyre.cli.serve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vyre.driver.error.VyreException;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing of the request decoder of {@code vyre serve} on the bytes a client sends,
 * as {@link ScanService} reads them: only a typed error with a fix, or the end of the bytes, may
 * come out.
 */
class ServiceProtocolFuzzTest {

  @Timeout(10)
  @FuzzTest
  void readRequest(byte[] request) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(request));
    try {
      if (ServiceProtocol.readHeader(in).kind() == ServiceProtocol.SCAN) {
        ServiceProtocol.readScan(in);
      }
    } catch (VyreException e) {
      assertTrue(e.getMessage().contains("Fix: "), e::getMessage);
    } catch (EOFException endedEarly) {
      // The service answers a request that ends early with an error frame, as it does a typed error.
    }
  }
}

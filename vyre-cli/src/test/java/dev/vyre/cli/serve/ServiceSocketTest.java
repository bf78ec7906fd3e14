package dev.vyre.cli.serve;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.driver.error.InputException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServiceSocketTest {

  @Test
  void aRuntimeWithoutJdkNetIsRefusedWithAFix() {
    InputException refused = assertThrows(InputException.class,
        () -> ServiceSocket.requirePeerCredentials(Optional.empty(), "/opt/small-jre"));
    assertTrue(refused.getMessage().contains("/opt/small-jre has no module jdk.net"), refused.getMessage());
    assertTrue(refused.getMessage().contains("Fix: run vyre on a full JDK 25"), refused.getMessage());
  }

  @Test
  void thisRuntimeCanReadPeerCredentials() {
    assertDoesNotThrow(() -> ServiceSocket.requirePeerCredentials());
  }
}

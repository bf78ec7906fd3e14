package dev.vyre.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.runtime.spi.DoctorProbe;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class IoDoctorLineTest {

  @Test
  void isAServiceThatStatesTheIoUringAvailability() {
    boolean registered = ServiceLoader.load(DoctorProbe.class).stream().anyMatch(p -> p.type() == IoDoctorLine.class);
    assertTrue(registered, "META-INF/services/dev.vyre.runtime.spi.DoctorProbe names IoDoctorLine");
    assertEquals("io         " + IoBackends.availability().detail(), new IoDoctorLine().line());
  }
}

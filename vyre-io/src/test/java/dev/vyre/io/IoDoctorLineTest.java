package dev.vyre.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ServiceLoader;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class IoDoctorLineTest {

  @Test
  void isAServiceThatStatesTheIoUringAvailability() {
    boolean registered = ServiceLoader.load(Supplier.class).stream().anyMatch(p -> p.type() == IoDoctorLine.class);
    assertTrue(registered, "META-INF/services/java.util.function.Supplier names IoDoctorLine");
    assertEquals("io         " + IoBackends.availability().detail(), new IoDoctorLine().get());
  }
}

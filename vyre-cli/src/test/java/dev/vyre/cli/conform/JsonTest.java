package dev.vyre.cli.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void negativeZeroAndExactFloatsSurviveParsing() throws IOException {
    double negativeZero = Json.f64Value(Json.MAPPER.readTree("[-0.0]").get(0), "x");
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(negativeZero));
    assertEquals(0.6749999999999999, Json.f64Value(Json.MAPPER.readTree("[0.6749999999999999]").get(0), "x"));
    assertEquals(Double.MIN_VALUE, Json.f64Value(Json.MAPPER.readTree("[5e-324]").get(0), "x"));
  }
}

package dev.vyre.cli.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void negativeZeroAndExactFloatsSurviveParsing() throws IOException {
    double negativeZero = Json.f64Value(Json.MAPPER.readTree("[-0.0]").get(0), "x");
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(negativeZero));
    assertEquals(0.6749999999999999, Json.f64Value(Json.MAPPER.readTree("[0.6749999999999999]").get(0), "x"));
    assertEquals(Double.MIN_VALUE, Json.f64Value(Json.MAPPER.readTree("[5e-324]").get(0), "x"));
  }

  @Test
  void rustDisplayIsShortestRoundTripWithoutExponent() {
    Map<Double, String> rows = Map.ofEntries(
        Map.entry(0.1, "0.1"),
        Map.entry(123.0, "123"),
        Map.entry(-1.5, "-1.5"),
        Map.entry(1e-7, "0.0000001"),
        Map.entry(1e21, "1000000000000000000000"),
        Map.entry(0.30000000000000004, "0.30000000000000004"),
        Map.entry(Double.MAX_VALUE, "17976931348623157" + "0".repeat(292)),
        Map.entry(Double.MIN_NORMAL, "0." + "0".repeat(307) + "22250738585072014"),
        // Subnormals: Rust prints the one digit that round-trips; Double.toString would print
        // 4.9E-324, 7.9E-323 and 9.9E-323 (two digits that lie closer).
        Map.entry(Double.MIN_VALUE, "0." + "0".repeat(323) + "5"),
        Map.entry(-8e-323, "-0." + "0".repeat(322) + "8"),
        Map.entry(1e-322, "0." + "0".repeat(321) + "1"),
        Map.entry(2.5e-322, "0." + "0".repeat(321) + "25"),
        // Exactly halfway between two shortest decimals: Rust takes the larger magnitude, Java's
        // Double.toString the even digit (…0.2, …312.2, …5312, ….562; checked against rustc 1.95).
        Map.entry(1000000000000000.25, "1000000000000000.3"),
        Map.entry(-1000000000000000.25, "-1000000000000000.3"),
        Map.entry(562949953421312.25, "562949953421312.3"),
        Map.entry(Math.scalb(1.0, -25), "0.000000029802322387695313"),
        Map.entry(24753662570808.5625, "24753662570808.563"));
    rows.forEach((value, text) -> assertEquals(text, Json.rustDisplay(value), () -> Double.toString(value)));
    assertEquals("-0", Json.rustDisplay(-0.0));
    assertEquals("0", Json.rustDisplay(0.0));
  }
}

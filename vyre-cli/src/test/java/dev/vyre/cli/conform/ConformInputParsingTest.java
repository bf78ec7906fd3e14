package dev.vyre.cli.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How {@code vyre conform} reads a line where JSON leaves room: vyre's side reads it with
 * serde_json, so a line is one JSON value and nothing after it, a number literal beyond f64 is an
 * error (serde_json's "number out of range"), {@code -0} is the float -0.0 (serde_json parses a
 * negative integer zero as a float), and a byte buffer is a JSON string.
 */
class ConformInputParsingTest {

  private static final ConformRunner RUNNER = new ConformRunner(ConformRegistry.loadAll());

  private static JsonNode answer(String line) throws IOException {
    return Json.MAPPER.readTree(RUNNER.answer(line));
  }

  private static void assertInputError(String line) throws IOException {
    JsonNode answer = answer(line);
    assertEquals("InputError", answer.path("error").path("type").asText(), line + " -> " + answer);
    assertEquals("InputError", answer.path("error").path("variant").asText(), line + " -> " + answer);
  }

  private static String workgroup(String costs, String currentSize) {
    return "{\"fn\":\"autotune_workgroup_size\",\"candidate_sizes\":[1,2],\"costs\":" + costs + ",\"current_size\":"
        + currentSize + "}";
  }

  @Test
  void somethingAfterTheObjectMakesTheLineUnparseable() throws IOException {
    assertInputError(workgroup("[2,1]", "5") + " {\"fn\":\"autotune_workgroup_size\"}");
    assertInputError(workgroup("[2,1]", "5") + " 7");
    assertInputError(workgroup("[2,1]", "5") + "]");
    // Whitespace after the object is fine.
    assertEquals(2, answer(workgroup("[2,1]", "5") + "  \t").get("result").asInt());
  }

  @Test
  void aNumberLiteralBeyondF64IsAnInputErrorNotInfinity() throws IOException {
    assertInputError(workgroup("[1e400,1]", "5"));
    assertInputError(workgroup("[-1e400,1]", "5"));
    assertInputError(workgroup("[1" + "0".repeat(400) + ",1]", "5"));
    // Underflow is no error: it parses to zero, as Rust's does.
    assertEquals(1, answer(workgroup("[1e-400,1]", "5")).get("result").asInt());
    // The non-finite values come as strings.
    assertEquals(2, answer(workgroup("[\"Infinity\",1]", "5")).get("result").asInt());
  }

  @Test
  void minusZeroIsTheFloatNegativeZero() throws IOException {
    // total_cmp orders -0.0 below 0.0, so the second candidate wins.
    assertEquals(2, answer(workgroup("[0,-0]", "5")).get("result").asInt());
    assertEquals("{\"result\":[-0,0]}", RUNNER.answer("{\"fn\":\"diffuse_priority_across_siblings\","
        + "\"priority_stalks\":[-0,0],\"restriction_diag\":[],\"damping\":0,\"iterations\":0}"));
    // A float is no unsigned integer, so -0 is refused where a u32 belongs.
    assertInputError(workgroup("[]", "-0"));
  }

  @Test
  void byteBuffersAreHexStringsNotNumbers() throws IOException {
    String ring = "\"\"";
    assertInputError("{\"fn\":\"telemetry_decode\",\"control_bytes\":" + "12".repeat(2) + ",\"ring_bytes\":" + ring + "}");
    assertInputError("{\"fn\":\"telemetry_decode\",\"control_bytes\":\"" + "00".repeat(640) + "\",\"ring_bytes\":[]}");
  }

  @Test
  void anInputErrorHasTheDocumentedShapeAndNothingElse() throws IOException {
    // docs/CONFORMANCE.md: {"error":{"type":"InputError","variant":"InputError","message":"..."}}, plus the
    // display every error carries; no fields of our own (the source name) that vyre's lacks.
    for (String line : List.of("{\"fn\":\"no_such_fn\"}", "{\"fn\":", "[1]", workgroup("[]", "4294967296"),
        "{\"fn\":\"cuda_plan_cache_sequence\",\"calls\":[{\"op\":\"get_or_select_topology\"}]}")) {
      JsonNode error = answer(line).path("error");
      if (error.isMissingNode()) {
        error = answer(line).path("results").path(0).path("output").path("error");
      }
      List<String> fields = new ArrayList<>();
      error.fieldNames().forEachRemaining(fields::add);
      assertEquals(List.of("type", "variant", "message", "display"), fields, line + " -> " + error);
      assertEquals("InputError", error.get("type").asText());
      assertEquals(error.get("message"), error.get("display"), line);
    }
  }

  @Test
  void aRingOfMoreThan156250SlotsIsNoTooLongString() throws IOException {
    // 160000 slots are 20,480,000 hex digits, past Jackson's default 20,000,000-character string
    // limit; serde_json has none.
    String ring = "00".repeat(64 * 160_000);
    String control = "00".repeat(640);
    JsonNode answer = answer("{\"fn\":\"telemetry_health_since\",\"previous_control_bytes\":\"" + control
        + "\",\"previous_ring_bytes\":\"" + ring + "\",\"control_bytes\":\"" + control + "\",\"ring_bytes\":\"" + ring
        + "\"}");
    assertEquals(1_000_000, answer.path("gpu_idle_ppm").asLong(), answer.toString());
    assertEquals(0, answer.path("queue_depth").asLong(), answer.toString());
  }
}

package dev.vyre.cli.conform;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.VyreException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Map;

/**
 * JSON conventions of docs/CONFORMANCE.md, "JSON conventions": unsigned integers up to u64, floats
 * in Rust's {@code Display} form with "NaN"/"Infinity"/"-Infinity" strings, enums as variant names,
 * byte buffers as lowercase hex, and the error object shape.
 */
public final class Json {

  // Floats stay doubles: Double.parseDouble rounds exactly like Rust, and BigDecimal has no -0.0.
  // No length limits of Jackson's own (20M-character strings, 1000-digit numbers): serde_json has
  // none, and a ring of 156,250 slots is already 20M hex digits.
  public static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxStringLength(Integer.MAX_VALUE)
          .maxNumberLength(Integer.MAX_VALUE)
          .build())
      .build())
      .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final BigInteger U64_LIMIT = BigInteger.ONE.shiftLeft(64);

  private Json() {}

  public static ObjectNode object() {
    return NODES.objectNode();
  }

  public static ArrayNode array() {
    return NODES.arrayNode();
  }

  /**
   * One input line as vyre's serde_json reads it: exactly one JSON value and nothing after it but
   * whitespace; an integer literal {@code -0} is the float -0.0 (serde_json turns a negative zero
   * integer into a float, so it is no unsigned integer); a float literal beyond the f64 range is
   * an error (serde_json's "number out of range") rather than infinity. Duplicate keys keep the
   * last value.
   *
   * @throws InputException for text that is not JSON, an empty line, trailing content or an out-of-range number
   */
  public static JsonNode parseLine(String line) throws IOException {
    try (JsonParser parser = MAPPER.getFactory().createParser(line)) {
      return parseValue(parser);
    } catch (JsonProcessingException e) {
      // Jackson's own message spans two lines, quotes a redacted source and has no fix.
      String column = e.getLocation() == null ? "" : " (column " + e.getLocation().getColumnNr() + ")";
      throw InputException.of("conform", "the line is not valid JSON: " + e.getOriginalMessage() + column,
          "write one complete JSON object per line, e.g. {\"fn\":\"recommend\",...}");
    }
  }

  private static JsonNode parseValue(JsonParser parser) throws IOException {
    JsonToken first = parser.nextToken();
    if (first == null) {
      throw InputException.of("conform", "the line holds no JSON value", "write one JSON object per line");
    }
    JsonNode value = readValue(parser, first);
    JsonToken after = parser.nextToken();
    if (after != null) {
      throw InputException.of("conform", "the line goes on after its JSON value with " + after,
          "write exactly one JSON object per line");
    }
    return value;
  }

  private static JsonNode readValue(JsonParser parser, JsonToken token) throws IOException {
    return switch (token) {
      case START_OBJECT -> {
        ObjectNode object = object();
        for (JsonToken key = parser.nextToken(); key == JsonToken.FIELD_NAME; key = parser.nextToken()) {
          String name = parser.currentName();
          object.set(name, readValue(parser, parser.nextToken()));
        }
        yield object;
      }
      case START_ARRAY -> {
        ArrayNode array = array();
        for (JsonToken item = parser.nextToken(); item != JsonToken.END_ARRAY; item = parser.nextToken()) {
          array.add(readValue(parser, item));
        }
        yield array;
      }
      case VALUE_STRING -> NODES.textNode(parser.getText());
      case VALUE_NUMBER_INT -> "-0".equals(parser.getText()) ? NODES.numberNode(-0.0)
          : NODES.numberNode(parser.getBigIntegerValue());
      case VALUE_NUMBER_FLOAT -> {
        double value = parser.getDoubleValue();
        if (Double.isInfinite(value)) {
          throw InputException.of("conform", "the number " + parser.getText() + " is out of the f64 range",
              "write non-finite floats as \"Infinity\" or \"-Infinity\"");
        }
        yield NODES.numberNode(value);
      }
      case VALUE_TRUE -> NODES.booleanNode(true);
      case VALUE_FALSE -> NODES.booleanNode(false);
      case VALUE_NULL -> NODES.nullNode();
      default -> throw InputException.of("conform", "unexpected JSON token " + token, "write one JSON object per line");
    };
  }

  /** The field, or an {@link InputException} naming it when it is absent. */
  public static JsonNode required(JsonNode input, String field) {
    JsonNode node = input.get(field);
    if (node == null || node.isNull()) {
      throw InputException.of("conform", "missing field \"" + field + "\"", "add \"" + field + "\" to the input object");
    }
    return node;
  }

  /** An unsigned integer field of at most 64 bits, as its u64 bit pattern. */
  public static long u64(JsonNode input, String field) {
    return u64Value(required(input, field), field);
  }

  /** An unsigned integer node of at most 64 bits, as its u64 bit pattern. */
  public static long u64Value(JsonNode node, String what) {
    if (!node.isIntegralNumber()) {
      throw InputException.of("conform", what + " is not an integer: " + node, "pass an unsigned JSON integer");
    }
    BigInteger value = node.bigIntegerValue();
    if (value.signum() < 0 || value.compareTo(U64_LIMIT) >= 0) {
      throw InputException.of("conform", what + " is outside u64: " + value, "pass a value in 0..18446744073709551615");
    }
    return value.longValue();
  }

  /** An unsigned integer field that must fit in a u32. */
  public static long u32(JsonNode input, String field) {
    long value = u64(input, field);
    if (!Unsigned.fitsU32(value)) {
      throw InputException.of("conform", field + " is outside u32: " + Long.toUnsignedString(value), "pass a value in 0..4294967295");
    }
    return value;
  }

  /** An f64 field: a JSON number or one of "NaN", "Infinity", "-Infinity". */
  public static double f64(JsonNode input, String field) {
    return f64Value(required(input, field), field);
  }

  /** An f64 node: a JSON number or one of "NaN", "Infinity", "-Infinity". */
  public static double f64Value(JsonNode node, String what) {
    if (node.isTextual()) {
      return switch (node.asText()) {
        case "NaN" -> Double.NaN;
        case "Infinity" -> Double.POSITIVE_INFINITY;
        case "-Infinity" -> Double.NEGATIVE_INFINITY;
        default -> throw InputException.of("conform", what + " is not a number: " + node, "pass a JSON number or \"NaN\"/\"Infinity\"/\"-Infinity\"");
      };
    }
    if (!node.isNumber()) {
      throw InputException.of("conform", what + " is not a number: " + node, "pass a JSON number");
    }
    double value = node.doubleValue();
    if (Double.isInfinite(value)) {
      // An integer literal past f64 (a float literal is refused by parseLine): serde_json's "number out of range".
      throw InputException.of("conform", what + " is out of the f64 range: " + node,
          "write non-finite floats as \"Infinity\" or \"-Infinity\"");
    }
    return value;
  }

  /** A u64 bit pattern as a JSON integer. */
  public static JsonNode u64Node(long bits) {
    return bits >= 0 ? NODES.numberNode(bits) : NODES.numberNode(new BigInteger(Long.toUnsignedString(bits)));
  }

  /**
   * An f64 in Rust's {@code Display} form: shortest round-trip digits, never an exponent,
   * {@code -0} for negative zero, strings for non-finite values.
   */
  public static JsonNode f64Node(double value) {
    if (Double.isNaN(value)) {
      return NODES.textNode("NaN");
    }
    if (Double.isInfinite(value)) {
      return NODES.textNode(value > 0 ? "Infinity" : "-Infinity");
    }
    return NODES.rawValueNode(new RawValue(rustDisplay(value)));
  }

  /** Rust's {@code Display} text for a finite f64. */
  public static String rustDisplay(double value) {
    if (value == 0) {
      return (Double.doubleToRawLongBits(value) < 0) ? "-0" : "0";
    }
    // toPlainString never uses an exponent; stripping the zeros drops a trailing ".0".
    return shortestDigits(value).toPlainString();
  }

  /**
   * The shortest decimal that parses back to {@code value} and, among those, the closest: the
   * digits Rust prints. {@link Double#toString} (JDK 19+) differs in two places. Where one digit
   * would round-trip, its spec also weighs two-digit decimals and takes the closest, so
   * {@code 5e-324} comes out as {@code 4.9E-324} (only subnormals are coarse enough for that): we
   * go back to the one digit. And where the value lies exactly halfway between two shortest
   * decimals, Java takes the even last digit and Rust the one of larger magnitude
   * ({@code 1000000000000000.25} prints as {@code 1000000000000000.3} in Rust).
   */
  static BigDecimal shortestDigits(double value) {
    BigDecimal exact = new BigDecimal(value);
    BigDecimal java = new BigDecimal(Double.toString(value)).stripTrailingZeros();
    BigDecimal shortest = java.precision() == 2 ? oneDigitIfItRoundTrips(value, exact, java) : java;
    // The other decimal as far from the value on the other side: a tie when it is as short.
    BigDecimal mirror = exact.multiply(BigDecimal.TWO).subtract(shortest).stripTrailingZeros();
    if (mirror.abs().compareTo(shortest.abs()) > 0 && mirror.precision() <= shortest.precision()
        && Double.parseDouble(mirror.toString()) == value) {
      return mirror;
    }
    return shortest;
  }

  /** The closest one-digit decimal that parses back to {@code value}, or {@code twoDigits} if none does. */
  private static BigDecimal oneDigitIfItRoundTrips(double value, BigDecimal exact, BigDecimal twoDigits) {
    BigDecimal best = null;
    for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
      BigDecimal oneDigit = twoDigits.round(new MathContext(1, mode));
      boolean roundTrips = Double.parseDouble(oneDigit.toString()) == value;
      if (roundTrips && (best == null
          || oneDigit.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0)) {
        best = oneDigit;
      }
    }
    return best == null ? twoDigits : best.stripTrailingZeros();
  }

  /** Lowercase hex of a byte buffer. */
  public static String hex(byte[] bytes) {
    return java.util.HexFormat.of().formatHex(bytes);
  }

  /** The bytes of a lowercase or uppercase hex string field. */
  public static byte[] bytes(JsonNode input, String field) {
    JsonNode node = required(input, field);
    if (!node.isTextual()) {
      throw InputException.of("conform", field + " is not a hex string: " + node, "encode byte buffers as lowercase hex strings");
    }
    String text = node.asText();
    try {
      return java.util.HexFormat.of().parseHex(text);
    } catch (IllegalArgumentException e) {
      throw InputException.of("conform", field + " is not a hex string", "encode byte buffers as lowercase hex with an even number of digits");
    }
  }

  /**
   * The error object of docs/CONFORMANCE.md, "Errors", for any vyre error, nested errors included.
   * An input error has the contract's shape, {@code type}, {@code variant}, {@code message} (and
   * the display every error carries), without our own fields such as the source name.
   */
  public static ObjectNode errorObject(VyreException error) {
    if (error instanceof InputException) {
      return inputError(error.getMessage());
    }
    ObjectNode object = object();
    object.put("type", error.errorType());
    object.put("variant", error.variant().name());
    for (Map.Entry<String, Object> field : error.fields().entrySet()) {
      object.set(field.getKey(), fieldValue(field.getValue()));
    }
    object.put("display", error.display());
    return object;
  }

  private static JsonNode fieldValue(Object value) {
    return switch (value) {
      case null -> NODES.nullNode();
      case Long l -> u64Node(l);
      case Integer i -> u64Node(Integer.toUnsignedLong(i));
      case Boolean b -> NODES.booleanNode(b);
      case Double d -> f64Node(d);
      case VyreException nested -> errorObject(nested);
      case JsonNode node -> node;
      default -> NODES.textNode(value.toString());
    };
  }

  /** {@code {"type":"InputError","variant":"InputError","message":m,"display":m}}: input that could not be read. */
  public static ObjectNode inputError(String message) {
    ObjectNode object = object();
    object.put("type", "InputError");
    object.put("variant", "InputError");
    object.put("message", message);
    object.put("display", message);
    return object;
  }

  /** Wraps an error object as {@code {"error":{...}}}. */
  public static ObjectNode error(VyreException error) {
    ObjectNode wrapper = object();
    wrapper.set("error", errorObject(error));
    return wrapper;
  }
}

package dev.vyre.cli.telemetry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vyre.cli.conform.ConformModule;
import dev.vyre.cli.conform.ConformRegistry;
import dev.vyre.cli.conform.Json;
import dev.vyre.cli.policy.PolicyJson;
import dev.vyre.driver.Unsigned;
import dev.vyre.driver.error.InputException;
import dev.vyre.observe.telemetry.RingTelemetry;
import dev.vyre.policy.MegakernelLaunchRequest;

/**
 * The telemetry functions of {@code vyre conform} (docs/CONFORMANCE.md, "Telemetry"):
 * {@code telemetry_decode}, {@code telemetry_recommend_launch} and {@code telemetry_health_since},
 * over hex byte buffers.
 */
public final class TelemetryConformModule implements ConformModule {

  /** The service instance; {@link java.util.ServiceLoader} calls this. */
  public TelemetryConformModule() {}

  private static final String SOURCE = "conform";

  @Override
  public void register(ConformRegistry registry) {
    registry.add("telemetry_decode", input -> TelemetryJson.decoded(decode(input, windowOpcodes(input))));
    registry.add("telemetry_recommend_launch", input -> {
      MegakernelLaunchRequest request = PolicyJson.request(input.get("request"), SOURCE);
      return PolicyJson.recommendation(decode(input, windowOpcodes(input)).recommendLaunch(request));
    });
    registry.add("telemetry_health_since", input -> {
      byte[] previousControl = Json.bytes(input, "previous_control_bytes");
      byte[] previousRing = Json.bytes(input, "previous_ring_bytes");
      byte[] control = Json.bytes(input, "control_bytes");
      byte[] ring = Json.bytes(input, "ring_bytes");
      RingTelemetry previous = RingTelemetry.tryDecode(previousControl, previousRing);
      return TelemetryJson.watchdog(RingTelemetry.tryDecode(control, ring).healthSince(previous));
    });
  }

  private static RingTelemetry decode(JsonNode input, int[] windowOpcodes) {
    byte[] control = Json.bytes(input, "control_bytes");
    byte[] ring = Json.bytes(input, "ring_bytes");
    return RingTelemetry.tryDecodeWithWindowOpcodes(control, ring, windowOpcodes);
  }

  /** The optional {@code window_opcodes} list of u32, default empty. */
  static int[] windowOpcodes(JsonNode input) {
    JsonNode list = input.get("window_opcodes");
    if (list == null || list.isNull()) {
      return new int[0];
    }
    if (!list.isArray()) {
      throw InputException.of(SOURCE, "window_opcodes is not a list: " + list, "pass window_opcodes as [u32, ...]");
    }
    int[] opcodes = new int[list.size()];
    for (int i = 0; i < opcodes.length; i++) {
      long value = Json.u64Value(list.get(i), "window_opcodes[" + i + "]");
      if (!Unsigned.fitsU32(value)) {
        throw InputException.of(SOURCE, "window_opcodes[" + i + "] is outside u32: " + Long.toUnsignedString(value),
            "pass opcodes in 0..4294967295");
      }
      opcodes[i] = (int) value;
    }
    return opcodes;
  }
}

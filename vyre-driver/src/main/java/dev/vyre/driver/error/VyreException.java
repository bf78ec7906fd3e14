package dev.vyre.driver.error;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Root of every error vyre raises. Each error belongs to a family named after vyre's Rust error
 * enum ({@link #errorType()}), names its variant ({@link #variant()}), carries the variant's
 * structured fields in declaration order ({@link #fields()}), and has a message that says what went
 * wrong and ends with a {@code Fix: ...} hint.
 *
 * <p>The families are closed here; {@link BackendException} and {@link PlanException} are open so
 * that a planner can declare its own variants next to the code that raises them.
 */
public abstract sealed class VyreException extends RuntimeException
    permits ProtocolException, PipelineException, BackendException, PlanException, DeviceException,
        KernelException, InputException, NotImplementedException {

  private final String variant;
  private final Map<String, Object> fields;

  protected VyreException(String variant, Map<String, Object> fields, String message, Throwable cause) {
    super(message, cause);
    this.variant = variant;
    this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  protected VyreException(String variant, Map<String, Object> fields, String message) {
    this(variant, fields, message, null);
  }

  /** The Rust error enum this error mirrors, e.g. {@code PipelineError}. */
  public abstract String errorType();

  /** The variant name, e.g. {@code QueueFull}. */
  public final String variant() {
    return variant;
  }

  /**
   * The variant's named fields in declaration order. Values are String, Boolean, nested errors, or
   * Long, which always holds an unsigned Rust integer (u32/u64/usize) and is printed unsigned.
   */
  public final Map<String, Object> fields() {
    return fields;
  }

  /** The exact display text (vyre's {@code Display}). */
  public String display() {
    return getMessage();
  }

  /** Small builder so variants read like their Rust declaration: {@code fields("queue", q, "fix", f)}. */
  protected static Map<String, Object> fieldMap(Object... keyValues) {
    if (keyValues.length % 2 != 0) {
      throw new IllegalArgumentException("fieldMap needs key/value pairs");
    }
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put((String) keyValues[i], keyValues[i + 1]);
    }
    return map;
  }
}

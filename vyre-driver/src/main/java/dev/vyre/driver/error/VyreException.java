package dev.vyre.driver.error;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Root of every error vyre raises. Each error belongs to a family named after vyre's Rust error
 * enum ({@link #errorType()}), is one of that family's variants ({@link #variant()}, an enum
 * constant that each family narrows to its own enum), carries the variant's structured fields in
 * declaration order ({@link #fields()}), and has a message that says what went wrong and ends with
 * a {@code Fix: ...} hint.
 *
 * <p>The families are closed here; {@link BackendException} and {@link PlanException} stay open
 * ({@code non-sealed}) because their subclasses live in other modules (tenants in vyre-runtime,
 * replay logs in vyre-observe, planners in vyre-cuda and vyre-policy), and a sealed class may only
 * permit subclasses of its own module.
 */
public abstract sealed class VyreException extends RuntimeException
    permits ProtocolException, PipelineException, BackendException, PlanException, DeviceException,
        KernelException, InputException, NotImplementedException {

  private final ErrorVariant variant;
  private final Map<String, Object> fields;

  protected VyreException(ErrorVariant variant, Map<String, Object> fields, String message, Throwable cause) {
    super(message, cause);
    this.variant = Objects.requireNonNull(variant, "variant");
    this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  protected VyreException(ErrorVariant variant, Map<String, Object> fields, String message) {
    this(variant, fields, message, null);
  }

  /** The Rust error enum this error mirrors, e.g. {@code PipelineError}. */
  public abstract String errorType();

  /**
   * The variant, e.g. {@code PipelineException.Variant.QueueFull}. Families override this to return
   * their own enum, so {@code switch (e.variant())} over one family is checked for exhaustiveness.
   */
  public ErrorVariant variant() {
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

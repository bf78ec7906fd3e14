package dev.vyre.driver.error;

/**
 * Input from a person or a file was rejected: a bad slot-program line, an unknown flag value, a
 * malformed JSON request. Names the source and, where there is one, the line.
 */
public final class InputException extends VyreException {

  /** The family has one variant, named as the family is (the conformance JSON prints both). */
  public enum Variant implements ErrorVariant {
    InputError
  }

  private InputException(Variant variant, java.util.Map<String, Object> fields, String message) {
    super(variant, fields, message);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "InputError";
  }

  public static InputException at(String source, long line, String problem, String fix) {
    String message = source + ":" + line + ": " + problem + ". Fix: " + fix;
    return new InputException(Variant.InputError, fieldMap("source", source, "line", line, "message", message), message);
  }

  public static InputException of(String source, String problem, String fix) {
    String message = source + ": " + problem + ". Fix: " + fix;
    return new InputException(Variant.InputError, fieldMap("source", source, "message", message), message);
  }
}

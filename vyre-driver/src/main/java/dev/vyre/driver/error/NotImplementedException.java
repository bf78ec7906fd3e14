package dev.vyre.driver.error;

/** A feature that is not built yet; names the issue that tracks it. */
public final class NotImplementedException extends VyreException {

  /** The family has one variant, named as the family is. */
  public enum Variant implements ErrorVariant {
    NotImplemented
  }

  private NotImplementedException(String feature, int issue, String fix) {
    super(Variant.NotImplemented, fieldMap("feature", feature, "issue", (long) issue),
        feature + " is not implemented yet (issue #" + issue + "). Fix: " + fix);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "NotImplemented";
  }

  public static NotImplementedException of(String feature, int issue, String fix) {
    return new NotImplementedException(feature, issue, fix);
  }
}

package dev.vyre.runtime.spi;

/** Whether a backend can run here, and in words why or why not (shown by {@code vyre doctor}). */
public record Availability(boolean usable, String detail) {

  public static Availability usable(String detail) {
    return new Availability(true, detail);
  }

  public static Availability unusable(String why) {
    return new Availability(false, why);
  }
}

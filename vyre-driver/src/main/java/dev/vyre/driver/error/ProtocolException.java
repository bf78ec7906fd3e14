package dev.vyre.driver.error;

/**
 * A malformed wire buffer (vyre's {@code ProtocolError}): the length overflows, is not a whole
 * number of words, or lacks a word the reader needs.
 */
public final class ProtocolException extends VyreException {

  /** What is wrong with the buffer. */
  public enum Variant implements ErrorVariant {
    ByteLengthOverflow,
    MisalignedByteLength,
    MissingWord,
    /** Not a vyre variant: a word holds a value its reader cannot accept. */
    InvalidWord
  }

  private ProtocolException(Variant variant, java.util.Map<String, Object> fields, String message) {
    super(variant, fields, message);
  }

  @Override
  public Variant variant() {
    return (Variant) super.variant();
  }

  @Override
  public String errorType() {
    return "ProtocolError";
  }

  public static ProtocolException byteLengthOverflow(String buffer, String fix) {
    return new ProtocolException(Variant.ByteLengthOverflow, fieldMap("buffer", buffer, "fix", fix),
        buffer + " byte length overflows. Fix: " + fix);
  }

  public static ProtocolException misalignedByteLength(String buffer, long byteLen, String fix) {
    return new ProtocolException(Variant.MisalignedByteLength,
        fieldMap("buffer", buffer, "byte_len", byteLen, "fix", fix),
        buffer + " byte length " + byteLen + " is not a multiple of 4. Fix: " + fix);
  }

  public static ProtocolException missingWord(String buffer, long wordIdx, long byteLen, String fix) {
    return new ProtocolException(Variant.MissingWord,
        fieldMap("buffer", buffer, "word_idx", wordIdx, "byte_len", byteLen, "fix", fix),
        buffer + " is missing word " + wordIdx + " (byte length " + byteLen + "). Fix: " + fix);
  }

  /**
   * A word holds a value its reader cannot accept (a bad magic number, an index past its table).
   * Not a vyre variant: our own descriptors (e.g. the DFA table) validate content, not only length.
   */
  public static ProtocolException invalidWord(String buffer, long wordIdx, long value, long byteLen, String problem, String fix) {
    return new ProtocolException(Variant.InvalidWord,
        fieldMap("buffer", buffer, "word_idx", wordIdx, "value", value, "byte_len", byteLen, "fix", fix),
        buffer + " word " + wordIdx + " holds " + value + " (byte length " + byteLen + "): " + problem
            + ". Fix: " + fix);
  }
}

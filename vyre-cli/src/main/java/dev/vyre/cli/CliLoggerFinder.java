package dev.vyre.cli;

import java.text.MessageFormat;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * The loggers of the {@code vyre} command. vyre's libraries log through {@link System.Logger} (an
 * application embedding them routes or silences that); on the command line their warnings are the
 * person's to read, so they print on stderr as the library printed them before, one line each:
 * {@code vyre: message} (another logger's with its name). With {@code --verbose}, INFO too.
 * Found as a {@link System.LoggerFinder} service of the vyre jar.
 */
public final class CliLoggerFinder extends System.LoggerFinder {

  private static volatile System.Logger.Level threshold = System.Logger.Level.WARNING;

  /** Prints INFO messages too ({@code --verbose}), or only warnings and errors. */
  static void verbose(boolean verbose) {
    threshold = verbose ? System.Logger.Level.INFO : System.Logger.Level.WARNING;
  }

  @Override
  public System.Logger getLogger(String name, Module module) {
    return new StderrLogger(name);
  }

  private record StderrLogger(String name) implements System.Logger {

    @Override
    public String getName() {
      return name;
    }

    @Override
    public boolean isLoggable(Level level) {
      return level != Level.OFF && level.getSeverity() >= threshold.getSeverity();
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
      if (isLoggable(level)) {
        print(localized(bundle, message) + (thrown == null ? "" : ": " + thrown));
      }
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
      if (isLoggable(level)) {
        String pattern = localized(bundle, format);
        print(params == null || params.length == 0 ? pattern : MessageFormat.format(pattern, params));
      }
    }

    private void print(String message) {
      // System.err as it is now, not as it was when the logger was made: tests and the CLI replace it.
      System.err.println(name.startsWith("dev.vyre.") ? "vyre: " + message : "vyre: " + name + ": " + message);
    }

    private static String localized(ResourceBundle bundle, String key) {
      if (bundle == null || key == null) {
        return String.valueOf(key);
      }
      try {
        return bundle.getString(key);
      } catch (MissingResourceException e) {
        return key;
      }
    }
  }
}

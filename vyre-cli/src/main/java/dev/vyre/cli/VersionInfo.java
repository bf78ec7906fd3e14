package dev.vyre.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/**
 * {@code vyre --version}: the version and commit the jar was built from (build.properties, filled in
 * by the build), the JDK running it and the backends usable here, as {@code vyre doctor} sees them.
 */
final class VersionInfo implements CommandLine.IVersionProvider {

  @Override
  public String[] getVersion() {
    Properties build = build();
    String usable = String.join(", ", DoctorCommand.usableBackends());
    return new String[] {
        "vyre " + build.getProperty("version", "unknown") + " (commit " + build.getProperty("commit", "unknown") + ")",
        "jdk " + DoctorCommand.jdk(),
        "usable backends: " + (usable.isEmpty() ? "none (vyre doctor says why)" : usable)};
  }

  /** The version and commit: a client and a service of different builds do not share a scan. */
  static String buildId() {
    Properties build = build();
    return build.getProperty("version", "unknown") + " (commit " + build.getProperty("commit", "unknown") + ")";
  }

  private static Properties build() {
    Properties properties = new Properties();
    try (InputStream in = VersionInfo.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties;
  }
}

package dev.vyre.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./vyre} launcher script, run against a stub JDK that reports what it was given. */
class LauncherTest {

  @TempDir Path dir;

  /** The locale the launcher runs Java under, given {@code env}. */
  private String javaLocale(Map<String, String> env) throws IOException, InterruptedException {
    Path root = dir.resolve("root");
    Files.createDirectories(root.resolve("vyre-cli/target"));
    Files.copy(Path.of("..", "vyre"), root.resolve("vyre"), StandardCopyOption.REPLACE_EXISTING);
    Files.writeString(root.resolve("vyre-cli/target/vyre.jar"), "");
    Path java = dir.resolve("jdk/bin/java");
    Files.createDirectories(java.getParent());
    Files.writeString(java, """
        #!/bin/sh
        if [ "$1" = -version ]; then echo 'openjdk version "25" 2025-09-16' >&2; exit 0; fi
        echo "${LC_ALL:-}|${LC_CTYPE:-}|${LANG:-}"
        """);
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    ProcessBuilder builder = new ProcessBuilder("bash", root.resolve("vyre").toString(), "doctor");
    builder.environment().keySet().removeIf(name -> name.startsWith("LC_") || name.equals("LANG"));
    builder.environment().putAll(env);
    builder.environment().put("JAVA_HOME", dir.resolve("jdk").toString());
    Process process = builder.redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals(0, process.waitFor(), out);
    return out;
  }

  @Test
  void javaRunsUnderAUtf8LocaleSoEveryFileNameCanBeOpened() throws Exception {
    // Under LANG=C Java decoded file names as ASCII: vyre scan could not open café.txt ("No such file").
    assertEquals("C.UTF-8||", javaLocale(Map.of()));
    assertEquals("C.UTF-8||C", javaLocale(Map.of("LANG", "C")));
    assertEquals("C.UTF-8||", javaLocale(Map.of("LC_ALL", "POSIX")));
  }

  @Test
  void aUtf8LocaleIsLeftAlone() throws Exception {
    assertEquals("||en_US.UTF-8", javaLocale(Map.of("LANG", "en_US.UTF-8")));
    assertEquals("C.utf8||", javaLocale(Map.of("LC_ALL", "C.utf8")));
    assertEquals("|C.UTF-8|C", javaLocale(Map.of("LC_CTYPE", "C.UTF-8", "LANG", "C")));
  }
}

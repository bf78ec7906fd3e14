package dev.vyre.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** fnmatch(3) without flags, as GNU grep 3.8 on glibc 2.36 matched these in a UTF-8 locale. */
class FileGlobTest {

  private static boolean matches(String glob, String name) {
    return FileGlob.of(glob).matches(name.getBytes(StandardCharsets.UTF_8));
  }

  private static void check(String glob, String name, boolean expected) {
    assertEquals(expected, matches(glob, name), glob + " against " + name);
  }

  @Test
  void starAndQuestionMarkMatchAnyCharacterSlashesAndLeadingDotsIncluded() {
    check("*.txt", "a.txt", true);
    check("*.txt", ".hidden.txt", true);
    check("*.txt", "dir/a.txt", true);
    check("*", "", true);
    check("*", ".", true);
    check("a*b*c", "aXbYbc", true);
    check("a*b*c", "aXbYbcd", false);
    check("?.txt", "a.txt", true);
    check("?.txt", "ab.txt", false);
    check("?", "/", true);
    check("a.txt", "a.txt", true);
    check("a.txt", "xa.txt", false);
    check("a.txt", "dir/a.txt", false);
  }

  @Test
  void bracketsMatchOneCharacterOfASet() {
    check("[ab].txt", "b.txt", true);
    check("[ab].txt", "c.txt", false);
    check("[!ab].txt", "c.txt", true);
    check("[^ab].txt", "a.txt", false);
    check("[a-c]x", "bx", true);
    check("[a-c]x", "dx", false);
    check("[]a]", "]", true);
    check("[!]a]", "]", false);
    check("[a-]", "-", true);
    check("[[:digit:]]*", "7up", true);
    check("[[:digit:]]*", "up7", false);
    check("[[:alpha:]][[:upper:]]", "aB", true);
    check("[[:alpha:]][[:upper:]]", "ab", false);
    check("[[:space:][:punct:]]", "-", true);
    check("[[:nonsense:]]", "n", false);
    check("[ab", "[ab", true);
    check("[ab", "a", false);
  }

  @Test
  void aBackslashQuotesTheNextCharacter() {
    check("\\*.txt", "*.txt", true);
    check("\\*.txt", "a.txt", false);
    check("\\a.txt", "a.txt", true);
    check("[\\]]", "]", true);
    check("a\\", "a\\", true);
  }

  /**
   * A valid UTF-8 name matches as characters or as bytes; one that is not UTF-8 matches as bytes:
   * glibc's fnmatch in C.UTF-8 answered so for each of these, as grep --include showed.
   */
  @Test
  void namesMatchAsCharactersOrAsBytes() {
    check("?.txt", "é.txt", true);
    check("??.txt", "é.txt", true);
    check("???.txt", "é.txt", false);
    check("[é].txt", "é.txt", true);
    check("[[:alpha:]].txt", "é.txt", true);
    check("[[:alpha:]][[:alpha:]].txt", "é.txt", false);
    byte[] notUtf8 = {'n', (byte) 0xFF, '.', 'b', 'i', 'n'};
    assertEquals(true, FileGlob.of("n?.bin").matches(notUtf8));
    assertEquals(true, FileGlob.of("*").matches(notUtf8));
    assertEquals(true, FileGlob.of("n*").matches(notUtf8));
    assertEquals(false, FileGlob.of("n[^a]?.bin").matches(notUtf8));
    assertEquals(true, FileGlob.of("n[^a].bin").matches(notUtf8));
  }
}

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * A build step (vyre-cli's pom, after the shade): rewrites the classes of the fat jar under a package
 * prefix, compiled for Java 5, as Java 8 class files with stack map frames, in place:
 * {@code java -cp asm.jar ClassFileUpgrade.java JAR PREFIX}. picocli ships Java 5 class files, which
 * the JDK's ahead-of-time cache cannot hold and which the old type-inferring verifier checks at every
 * start; upgraded, they come from the cache like the rest (docs/BENCHMARKS.md has the start-up saved).
 * The code itself is unchanged: only the version and the frames the new verifier needs.
 */
public final class ClassFileUpgrade {

  private ClassFileUpgrade() {}

  public static void main(String[] args) throws IOException {
    Path jar = Path.of(args[0]);
    String prefix = args[1];
    Path upgraded = jar.resolveSibling(jar.getFileName() + ".upgrading");
    int count = 0;
    try (JarFile in = new JarFile(jar.toFile());
        URLClassLoader classes = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        JarOutputStream out = new JarOutputStream(new FileOutputStream(upgraded.toFile()))) {
      for (Enumeration<JarEntry> entries = in.entries(); entries.hasMoreElements(); ) {
        JarEntry entry = entries.nextElement();
        byte[] bytes;
        try (InputStream data = in.getInputStream(entry)) {
          bytes = data.readAllBytes();
        }
        if (entry.getName().startsWith(prefix) && entry.getName().endsWith(".class")) {
          bytes = upgrade(bytes, classes);
          count++;
        }
        out.putNextEntry(new JarEntry(entry.getName()));
        out.write(bytes);
        out.closeEntry();
      }
    }
    if (count == 0) {
      throw new IllegalStateException("no class under " + prefix + " in " + jar + ". Fix: check the prefix in vyre-cli's pom");
    }
    Files.move(upgraded, jar, StandardCopyOption.REPLACE_EXISTING);
    System.out.println("class-file upgrade: " + count + " classes under " + prefix + " in " + jar + " now Java 8 class files");
  }

  private static byte[] upgrade(byte[] bytes, ClassLoader classes) {
    ClassReader reader = new ClassReader(bytes);
    if (reader.readShort(6) >= Opcodes.V1_8) {
      return bytes;
    }
    // Frames need the common superclass of two types, found by loading them from the jar itself.
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
      @Override
      protected ClassLoader getClassLoader() {
        return classes;
      }
    };
    reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
      @Override
      public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        super.visit(Opcodes.V1_8, access, name, signature, superName, interfaces);
      }
    }, ClassReader.SKIP_FRAMES);
    return writer.toByteArray();
  }
}

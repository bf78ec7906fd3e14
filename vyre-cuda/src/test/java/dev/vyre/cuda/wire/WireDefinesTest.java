package dev.vyre.cuda.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vyre.cuda.KernelSource;
import dev.vyre.runtime.dfa.DfaStepArgs;
import dev.vyre.runtime.dfa.DfaTableLayout;
import dev.vyre.runtime.dfa.HitBufferLayout;
import dev.vyre.runtime.wire.ControlLayout;
import dev.vyre.runtime.wire.DebugLogLayout;
import dev.vyre.runtime.wire.ExpressLayout;
import dev.vyre.runtime.wire.FaultReason;
import dev.vyre.runtime.wire.IoQueueLayout;
import dev.vyre.runtime.wire.Opcodes;
import dev.vyre.runtime.wire.SlotLayout;
import dev.vyre.runtime.wire.SlotStatus;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Java and CUDA share every wire constant through one generated block: each constant of each
 * descriptor is in it with its value and C type, and no shipped .cu file defines one of its names
 * (a hand-written copy could drift) or uses a VYRE_ name that nothing defines.
 */
class WireDefinesTest {

  private static final Pattern DEFINE = Pattern.compile("(?m)^\\s*#\\s*define\\s+(VYRE_\\w+)(\\([^)]*\\))?(?:[ \\t]+(.*))?$");

  /** name -> C text of each #define in {@code source} (function-like macros included). */
  private static Map<String, String> defines(String source) {
    Map<String, String> defines = new HashMap<>();
    Matcher m = DEFINE.matcher(source);
    while (m.find()) {
      defines.put(m.group(1), m.group(3) == null ? "" : m.group(3).strip());
    }
    return defines;
  }

  /** The value of a C literal as the block writes them: 16u, 0x80000000u, 2, 268435455ull, (1ull << 63). */
  private static long cValue(String text) {
    Matcher shift = Pattern.compile("\\(1ull << (\\d+)\\)").matcher(text);
    if (shift.matches()) {
      return 1L << Integer.parseInt(shift.group(1));
    }
    Matcher literal = Pattern.compile("(0x[0-9A-F]+|\\d+)(u|ull)?").matcher(text);
    assertTrue(literal.matches(), "not a literal the block writes: " + text);
    String digits = literal.group(1);
    return digits.startsWith("0x") ? Long.parseUnsignedLong(digits.substring(2), 16) : Long.parseUnsignedLong(digits);
  }

  @Test
  void everyConstantOfEveryDescriptorIsInTheBlockWithItsValueAndType() throws IllegalAccessException {
    Map<String, String> block = defines(WireDefines.block());
    int checked = 0;
    for (WireDefines.Mirror mirror : WireDefines.MIRRORS) {
      Class<?> owner = mirror.owner();
      if (owner.isEnum()) {
        for (Object constant : owner.getEnumConstants()) {
          int code = constant instanceof FaultReason f ? f.code() : ((SlotStatus) constant).code();
          if (code < 0) {
            continue;
          }
          String name = mirror.macro(((Enum<?>) constant).name());
          String text = block.get(name);
          assertTrue(text != null, owner.getSimpleName() + "." + constant + " is not in the block as " + name);
          assertEquals(code, cValue(text), name);
          assertEquals(mirror.style() == WireDefines.Style.SIGNED, !text.endsWith("u"), name + " " + text);
          checked++;
        }
        continue;
      }
      for (Field field : owner.getDeclaredFields()) {
        int mod = field.getModifiers();
        boolean number = field.getType() == int.class || field.getType() == long.class;
        if (!number || !Modifier.isPublic(mod) || !Modifier.isStatic(mod) || !Modifier.isFinal(mod)) {
          continue;
        }
        String name = mirror.macro(field.getName());
        String text = block.get(name);
        assertTrue(text != null, owner.getSimpleName() + "." + field.getName() + " is not in the block as " + name);
        if (field.getType() == int.class) {
          assertEquals(Integer.toUnsignedLong(field.getInt(null)), cValue(text), name);
          assertTrue(text.matches("(0x[0-9A-F]+|\\d+)u"), name + " is not an unsigned int literal: " + text);
        } else {
          assertEquals(field.getLong(null), cValue(text), name);
          assertTrue(text.endsWith("ull") || text.startsWith("(1ull <<"), name + " is not an unsigned long long: " + text);
        }
        checked++;
      }
    }
    assertTrue(checked > 150, "only " + checked + " constants checked");
  }

  @Test
  void everyWireDescriptorIsMirrored() throws IOException, URISyntaxException {
    Set<Class<?>> mirrored = WireDefines.MIRRORS.stream().map(WireDefines.Mirror::owner).collect(Collectors.toSet());
    Set<Class<?>> required = Set.of(SlotLayout.class, SlotStatus.class, ControlLayout.class, IoQueueLayout.class, Opcodes.class,
        DebugLogLayout.class, ExpressLayout.class, FaultReason.class, DfaTableLayout.class, DfaStepArgs.class, HitBufferLayout.class,
        ResourceTableLayout.class, KernelArgsLayout.class, DeviceStateLayout.class, TraceLayout.class);
    assertTrue(mirrored.containsAll(required), "not mirrored: " + required.stream().filter(c -> !mirrored.contains(c)).toList());
    // A *Layout added to a wire package later is mirrored too (checked where the classes are a directory).
    for (Class<?> anchor : List.of(SlotLayout.class, DfaTableLayout.class, KernelArgsLayout.class)) {
      Path root = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path dir = root.resolve(anchor.getPackageName().replace('.', '/'));
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> files = Files.list(dir)) {
        for (String name : files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("Layout.class")).toList()) {
          String simple = name.substring(0, name.length() - ".class".length());
          assertTrue(mirrored.stream().anyMatch(c -> c.getSimpleName().equals(simple)), simple + " is not in WireDefines.MIRRORS");
        }
      }
    }
  }

  @Test
  void noShippedSourceDefinesAGeneratedName() {
    Set<String> generated = WireDefines.defines().stream().map(WireDefines.Define::name).collect(Collectors.toSet());
    List<String> sources = new ArrayList<>(KernelSource.PARTS);
    sources.add(KernelSource.BASELINES);
    for (String source : sources) {
      Set<String> duplicated = new TreeSet<>(defines(KernelSource.resource(source)).keySet());
      duplicated.retainAll(generated);
      assertTrue(duplicated.isEmpty(), source + " defines generated names by hand: " + duplicated);
    }
  }

  @Test
  void everyVyreNameTheKernelUsesIsDefined() {
    Set<String> known = new HashSet<>(defines(WireDefines.block()).keySet());
    known.add("VYRE_TRACE");  // the -DVYRE_TRACE build flag
    StringBuilder code = new StringBuilder();
    for (String part : KernelSource.PARTS) {
      String text = KernelSource.resource(part);
      known.addAll(defines(text).keySet());
      code.append(text.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " "));
    }
    Set<String> unknown = new TreeSet<>();
    Matcher m = Pattern.compile("\\bVYRE_[A-Z0-9_]+\\b").matcher(code);
    while (m.find()) {
      if (!known.contains(m.group())) {
        unknown.add(m.group());
      }
    }
    assertTrue(unknown.isEmpty(), "used, defined nowhere: " + unknown);
  }

  @Test
  void theAssembledKernelOpensWithTheBlockOnce() {
    String kernel = KernelSource.megakernel(List.of());
    assertTrue(kernel.startsWith(WireDefines.block()));
    assertEquals(kernel.indexOf(WireDefines.block()), kernel.lastIndexOf(WireDefines.block()));
    List<String> lines = WireDefines.block().lines().filter(l -> l.startsWith("#define ")).toList();
    assertEquals(WireDefines.defines().size(), lines.size());
    assertEquals(lines.size(), lines.stream().map(l -> l.split(" ")[1]).distinct().count(), "a name is defined twice");
  }

  @Test
  void oneNameWithTwoValuesIsRefused() {
    List<WireDefines.Mirror> clash = List.of(new WireDefines.Mirror(SlotLayout.class, "VYRE_", Map.of(), Set.of(), WireDefines.Style.UNSIGNED),
        new WireDefines.Mirror(IoQueueLayout.class, "VYRE_", Map.of(), Set.of(), WireDefines.Style.UNSIGNED));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> WireDefines.generate(clash));
    assertTrue(e.getMessage().contains("VYRE_SLOT_WORDS is 16u from SlotLayout.SLOT_WORDS but 8u from IoQueueLayout.SLOT_WORDS"),
        e.getMessage());
  }
}

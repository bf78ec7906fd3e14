import dev.vyre.runtime.dfa.PromotedDfaLayout;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ScanCorpus;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes dfa_lab's input: the table of `vyre bench resident`'s literals (table.bin), its promoted form
 * (promoted.bin, when it has one) and the bench's 64 MiB corpus block (corpus.bin), into DIR.
 *   java -cp vyre-cli/target/vyre.jar scripts/kernel-lab/DfaLabInput.java DIR [LITERALS]
 */
public class DfaLabInput {
  public static void main(String[] args) throws Exception {
    Path dir = Files.createDirectories(Path.of(args[0]));
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    List<String> literals = ScanCorpus.literals(count, ScanCorpus.DEFAULT_SEED);
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.fromArguments(literals, false));
    Files.write(dir.resolve("table.bin"), table.segment().toArray(ValueLayout.JAVA_BYTE));
    if (PromotedDfaLayout.compact(table.segment()) instanceof PromotedDfaLayout.Compact c) {
      Files.write(dir.resolve("promoted.bin"), c.table().toArray(ValueLayout.JAVA_BYTE));
    }
    MemorySegment block = MemorySegment.ofArray(new byte[64 << 20]);
    ScanCorpus.fill(block, literals, ScanCorpus.DEFAULT_SEED);
    Files.write(dir.resolve("corpus.bin"), block.toArray(ValueLayout.JAVA_BYTE));
    System.out.printf("%d literals, start state %d, longest %d; table %d bytes%n", count, table.startState(),
        table.maxPatternLength(), table.segment().byteSize());
  }
}

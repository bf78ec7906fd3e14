package dev.vyre.cli;

import dev.vyre.driver.error.InputException;
import dev.vyre.scan.ScanFile;
import dev.vyre.scan.ScanFilter;
import dev.vyre.scan.ScanTargets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files {@code vyre scan} reads: its PATH operands walked in order, with standard input where
 * an operand is {@code -}, or alone when no PATH is given, stdin holds data and {@code -r} was not
 * given (grep's rules: {@code grep -r PATTERN} scans the current directory whatever stdin is). Stdin
 * is scanned in place when it is a regular file read from its start, else copied into a temporary
 * file first (see {@link StandardInput#copyToTemporaryFile}), which {@link #close()} deletes.
 *
 * @param targets the files and the problems of the walk, stdin's file among the files
 * @param standardInput the file that holds stdin, or null when stdin is not read
 * @param copied standardInput is a temporary copy, to delete
 */
record ScanInputs(ScanTargets targets, Path standardInput, boolean copied) implements AutoCloseable {

  /** The operand that means standard input; a file of that name is ./- */
  static final String STDIN_OPERAND = "-";

  /** Whether stdin is scanned: for the operand "-", or with no PATH when it holds data (not with -r or -f -). */
  static boolean readsStdin(List<String> operands, boolean recursive, boolean patternsFromStdin, boolean stdinHoldsData) {
    return operands.contains(STDIN_OPERAND) || operands.isEmpty() && !recursive && !patternsFromStdin && stdinHoldsData;
  }

  /**
   * @param operands the PATH operands (the pattern taken out)
   * @param recursive -r was given: with no PATH, the current directory, not stdin
   * @param patternsFromStdin -f - already read stdin
   */
  static ScanInputs of(List<String> operands, ScanFilter filter, StandardInput stdin, boolean recursive,
      boolean patternsFromStdin, Path base) {
    boolean readsStdin = readsStdin(operands, recursive, patternsFromStdin, stdin.data());
    if (readsStdin && patternsFromStdin) {
      throw InputException.of(STDIN_OPERAND, "standard input holds the patterns (-f -), so it cannot also be scanned",
          "pass the patterns with -f FILE, or save the input to a file and scan that");
    }
    if (!readsStdin) {
      return new ScanInputs(ScanTargets.walk(operands.isEmpty() ? List.of(Path.of(""))
          : operands.stream().map(RawArguments::path).toList(), filter, base), null, false);
    }
    boolean copied = stdin.file() == null;
    Path file = copied ? stdin.copyToTemporaryFile() : stdin.file();
    try {
      ScanFile stdinFile = new ScanFile(file, Files.size(file));
      // Walked operand by operand so that stdin's file takes the place of its "-" (grep reads
      // operands in order) and the filters, which name files by name, never skip it.
      List<ScanFile> files = new ArrayList<>();
      List<ScanTargets.Problem> problems = new ArrayList<>();
      boolean stdinListed = false;
      for (String operand : operands.isEmpty() ? List.of(STDIN_OPERAND) : operands) {
        if (operand.equals(STDIN_OPERAND)) {
          // A second "-" finds stdin at its end, as grep does: nothing more to scan.
          if (!stdinListed) {
            files.add(stdinFile);
            stdinListed = true;
          }
          continue;
        }
        ScanTargets walked = ScanTargets.walk(List.of(RawArguments.path(operand)), filter, base);
        files.addAll(walked.files());
        problems.addAll(walked.problems());
      }
      return new ScanInputs(new ScanTargets(List.copyOf(files), List.copyOf(problems)), file, copied);
    } catch (IOException e) {
      if (copied) {
        StandardInput.deleteQuietly(file);
      }
      throw InputException.of(ScanFileNames.STANDARD_INPUT, "cannot be read (" + e + ")",
          "check the temporary directory (java.io.tmpdir), or save the input to a file and scan that");
    } catch (RuntimeException e) {
      if (copied) {
        StandardInput.deleteQuietly(file);
      }
      throw e;
    }
  }

  /** Deletes stdin's temporary file. */
  @Override
  public void close() {
    if (copied) {
      StandardInput.deleteQuietly(standardInput);
    }
  }
}

package dev.vyre.scan;

/**
 * What scanning one file found: every match ({@code hits}, sorted by offset; null when the job
 * only counts, and from {@link ScanJob#run(java.util.List, ScanSink)}, which streams them) and their number, or why the file could not be read completely ({@code error},
 * null when it was). A file that failed part-way keeps the matches found before the failure.
 *
 * @param inputId the input id its hit records carried: its position in the job's file list
 * @param unreadable the error is the file's own: it could not be opened or read (what grep -s keeps
 *     quiet about), not a limit of the scan
 * @param openFailed it could not even be opened (grep -c prints no count for such a file)
 */
public record FileResult(ScanFile file, int inputId, long matches, HitList hits, String error, boolean unreadable,
    boolean openFailed) {

  public boolean failed() {
    return error != null;
  }
}

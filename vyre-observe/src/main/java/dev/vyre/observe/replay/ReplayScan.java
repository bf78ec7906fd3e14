package dev.vyre.observe.replay;

import java.util.List;

/**
 * What one pass over a replay log found: its records oldest first, how many record places were
 * never written, and what could not be read back. vyre skips never-written records with a log
 * warning; a count here makes a gap visible.
 *
 * @param cursor the record the next append writes
 * @param indices each record's index in the file, in the order of {@code records}: what ties a
 *     record to its rerun sidecar entry
 * @param tornTail the last record written, when it was cut short or fails its checksum (a process
 *     killed while appending leaves one); null when the log ends cleanly
 * @param skipped damaged records that {@link RingLog#salvage} left out; always empty from a scan
 *     that refuses damage
 */
public record ReplayScan(ReplayLogFormat.Version version, long capacity, long cursor, List<ReplayRecord> records,
    List<Long> indices, long emptyRecords, DamagedRecord tornTail, List<DamagedRecord> skipped) {

  public ReplayScan {
    records = List.copyOf(records);
    indices = List.copyOf(indices);
    skipped = List.copyOf(skipped);
  }
}

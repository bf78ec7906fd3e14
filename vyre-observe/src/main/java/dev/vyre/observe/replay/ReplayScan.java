package dev.vyre.observe.replay;

import java.util.List;

/**
 * What one pass over a replay log found: its records oldest first (cursor order) and how many
 * record slots were never written. vyre skips those with a log warning; a count here makes a gap
 * visible, since after the log has wrapped an empty record can only be damage.
 *
 * @param indices each record's index in the file (record {@code k} at byte {@code 32 + 64k}), in
 *     the order of {@code records}: what ties a record to its rerun sidecar entry
 */
public record ReplayScan(long capacity, long cursor, List<ReplayRecord> records, List<Long> indices, long emptyRecords) {

  public ReplayScan {
    records = List.copyOf(records);
    indices = List.copyOf(indices);
  }
}

package dev.vyre.runtime.replay;

import java.util.List;

/**
 * What one pass over a replay log found: its records oldest first (cursor order) and how many
 * record slots were never written. vyre skips those with a log warning; a count here makes a gap
 * visible, since after the log has wrapped an empty record can only be damage.
 */
public record ReplayScan(long capacity, long cursor, List<ReplayRecord> records, long emptyRecords) {

  public ReplayScan {
    records = List.copyOf(records);
  }
}

package dev.vyre.observe.replay;

/**
 * A record of a replay log that could not be read back: cut short, or failing its checksum, magic
 * or sequence number.
 *
 * @param index the record's index in the file ({@code capacity} for bytes past the last record)
 * @param offset the byte it starts at
 * @param problem what is wrong with it, for a person
 */
public record DamagedRecord(long index, long offset, String problem) {}

package dev.vyre.io;

/**
 * Whether io_uring ingest works on this machine and, if not, exactly why and what to do: the line
 * {@code vyre doctor} and {@code --verbose} print.
 */
public record IoUringAvailability(boolean available, String detail) {}

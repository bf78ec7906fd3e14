package dev.vyre.runtime.scan;

/**
 * One chunk buffer of a {@link ScanJob}: the HOST_MAPPED input resource the chunk reader fills
 * (buffer {@code index} of its pool), the DEVICE hit resource its DFA_STEP tasks append to, and
 * the chunk it holds now. A slot is free, being read, or being scanned; it is reused only after
 * its tasks finished and their hits were read back.
 */
final class ChunkSlot {

  final int index;
  final int inputHandle;
  int hitHandle;
  long hitCapacity;
  FileScan file;
  ChunkPlanner.Chunk chunk;
  int bytesRead;
  /** The ticket of the chunk's last task; tickets retire in order, so the others are done too. */
  long lastTicket;

  ChunkSlot(int index, int inputHandle, int hitHandle, long hitCapacity) {
    this.index = index;
    this.inputHandle = inputHandle;
    this.hitHandle = hitHandle;
    this.hitCapacity = hitCapacity;
  }

  void hold(FileScan holder, ChunkPlanner.Chunk held) {
    file = holder;
    chunk = held;
    bytesRead = 0;
    holder.buffersHeld++;
  }

  void release() {
    file.buffersHeld--;
    file = null;
    chunk = null;
  }
}

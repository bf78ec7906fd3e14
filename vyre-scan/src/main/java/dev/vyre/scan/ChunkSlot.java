package dev.vyre.scan;

/**
 * One chunk buffer of a {@link ScanJob}: the HOST_MAPPED input resource the chunk reader fills
 * (buffer {@code index} of its pool), the resource its DFA_STEP tasks scan (that buffer, or a
 * DEVICE copy of it), the DEVICE hit resource its tasks append to, and
 * the chunk it holds now. A slot is free, being read, or being scanned; it is reused only after
 * its tasks finished and their hits were read back.
 */
final class ChunkSlot {

  final int index;
  /** The HOST_MAPPED buffer the reader fills. */
  final int inputHandle;
  /** The resource DFA_STEP reads: the buffer itself, or its DEVICE copy. */
  final int scanHandle;
  int hitHandle;
  long hitCapacity;
  FileScan file;
  ChunkPlanner.Chunk chunk;
  int bytesRead;
  /** The copy to the DEVICE resource, when the chunk is staged there. */
  long copy;
  /** The ticket of the chunk's last task; tickets retire in order, so the others are done too. */
  long lastTicket;

  ChunkSlot(int index, int inputHandle, int scanHandle, int hitHandle, long hitCapacity) {
    this.index = index;
    this.inputHandle = inputHandle;
    this.scanHandle = scanHandle;
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

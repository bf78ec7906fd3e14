package dev.vyre.cli.serve;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The service's side of one client's connection, after its request was read. Sends never throw:
 * once the client is gone (its socket closed: it was interrupted, or its output pipe closed and it
 * exited), every later send is dropped and the cancel action runs once, so the scan stops early
 * and gives its buffers back instead of failing half-way. A watcher thread reads the socket, on
 * which the client sends nothing more, to notice a client that goes while nothing is being sent.
 */
final class ClientLink {

  private final SocketChannel channel;
  private final byte[] header = new byte[ServiceProtocol.FRAME_HEADER_BYTES];
  private volatile boolean gone;
  private volatile Runnable cancel = () -> {};

  ClientLink(SocketChannel channel) {
    this.channel = channel;
  }

  /** Runs {@code action} when the client goes (at once if it is gone already). */
  void onGone(Runnable action) {
    cancel = action;
    if (gone) {
      action.run();
    }
  }

  /** Starts the watcher: a read returns only when the client closes its end (or sends garbage). */
  void watch() {
    Thread.ofVirtual().name("vyre-serve-watch").start(() -> {
      ByteBuffer one = ByteBuffer.allocate(1);
      try {
        while (!gone && channel.read(one) >= 0) {
          one.clear();
        }
      } catch (IOException closed) {
        // The service closed the channel after the request, or the client reset it.
      }
      markGone();
    });
  }

  void send(int type, ByteBuffer payload) {
    synchronized (header) {
      if (gone) {
        return;
      }
      ServiceProtocol.writeFrameHeader(header, type, payload.remaining());
      ByteBuffer[] frame = {ByteBuffer.wrap(header), payload};
      try {
        while (frame[0].hasRemaining() || frame[1].hasRemaining()) {
          channel.write(frame);
        }
      } catch (IOException e) {
        markGone();
      }
    }
  }

  void send(int type, byte[] payload) {
    send(type, ByteBuffer.wrap(payload));
  }

  void exit(int status) {
    send(ServiceProtocol.EXIT, ByteBuffer.allocate(4).putInt(0, status));
  }

  private void markGone() {
    if (!gone) {
      gone = true;
      cancel.run();
    }
  }

  boolean gone() {
    return gone;
  }
}

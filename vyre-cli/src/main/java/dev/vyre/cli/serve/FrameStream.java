package dev.vyre.cli.serve;

import java.io.OutputStream;
import java.nio.ByteBuffer;

/** Bytes for the client's stdout or stderr, sent as frames of one type over its {@link ClientLink}. */
final class FrameStream extends OutputStream {

  private final ClientLink link;
  private final int type;

  FrameStream(ClientLink link, int type) {
    this.link = link;
    this.type = type;
  }

  @Override
  public void write(int b) {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    for (int sent = 0; sent < length && !link.gone(); ) {
      int n = Math.min(length - sent, ServiceProtocol.MAX_FRAME_BYTES);
      link.send(type, ByteBuffer.wrap(bytes, offset + sent, n));
      sent += n;
    }
  }
}

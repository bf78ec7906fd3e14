package dev.vyre.cli.serve;

import dev.vyre.driver.error.InputException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * Where {@code vyre serve} listens and who may talk to it. The socket lives in a directory only
 * its user can enter ({@code $XDG_RUNTIME_DIR/vyre}, else {@code /tmp/vyre-UID}, mode 0700, owned
 * by the user and not a symbolic link), is itself mode 0600, and every peer's credentials
 * ({@code SO_PEERCRED}, which the kernel fills in at connect time and a client cannot forge) must
 * name the service's own user.
 */
public final class ServiceSocket {

  private ServiceSocket() {}

  /** The default socket path for this user: {@code VYRE_SOCKET} when set. */
  public static Path defaultPath() {
    String explicit = System.getenv("VYRE_SOCKET");
    if (explicit != null && !explicit.isEmpty()) {
      return Path.of(explicit);
    }
    String runtime = System.getenv("XDG_RUNTIME_DIR");
    Path directory = runtime != null && !runtime.isEmpty() ? Path.of(runtime, "vyre") : Path.of("/tmp", "vyre-" + uid());
    return directory.resolve("scan.sock");
  }

  /** This process's numeric user id. */
  static long uid() {
    try {
      return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
    } catch (IOException | UnsupportedOperationException e) {
      throw InputException.of("/proc/self", "the user id cannot be read (" + e.getMessage() + ")",
          "run vyre serve on Linux with /proc mounted, or pass --socket PATH");
    }
  }

  /**
   * Makes the socket's directory if it is missing (mode 0700), and checks that it is a directory of
   * this user's that no one else can enter.
   */
  public static void prepareDirectory(Path socket) throws IOException {
    Path directory = socket.toAbsolutePath().getParent();
    if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(directory.getParent());
      Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
      throw InputException.of(directory.toString(), "the service socket's directory is not a directory (or is a"
          + " symbolic link)", "remove it, or pass --socket PATH in a directory of your own");
    }
    long owner = ((Number) Files.getAttribute(directory, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
    int mode = ((Number) Files.getAttribute(directory, "unix:mode", LinkOption.NOFOLLOW_LINKS)).intValue();
    if (owner != uid() || (mode & 0077) != 0) {
      throw InputException.of(directory.toString(), "the service socket's directory belongs to user " + owner
          + " or others can enter it (mode " + Integer.toOctalString(mode & 0777) + ")",
          "chmod 700 it if it is yours, or pass --socket PATH in a directory only you can enter");
    }
  }

  /**
   * Checks that this Java runtime can read a client's credentials ({@code SO_PEERCRED} is in module
   * {@code jdk.net}, which a trimmed runtime image may leave out): a service without it could check
   * no client, so it refuses to start rather than fail each one.
   */
  public static void requirePeerCredentials() {
    requirePeerCredentials(ModuleLayer.boot().findModule("jdk.net"), System.getProperty("java.home"));
  }

  static void requirePeerCredentials(Optional<Module> jdkNet, String javaHome) {
    if (jdkNet.isEmpty()) {
      throw InputException.of("vyre serve", "the Java runtime at " + javaHome + " has no module jdk.net, which reads"
          + " a client's credentials (SO_PEERCRED)", "run vyre on a full JDK 25, or make the runtime image with jdk.net"
          + " (jlink --add-modules jdk.net; scripts/make-jre.sh includes it)");
    }
  }

  /** Whether {@code peer}, a connected client, runs as this process's user. */
  public static boolean samePeerUser(SocketChannel peer, UserPrincipal self) throws IOException {
    UnixDomainPrincipal credentials = peer.getOption(ExtendedSocketOptions.SO_PEERCRED);
    return credentials.user().equals(self);
  }

  /** This process's user as a principal, to compare peers with. */
  public static UserPrincipal self() throws IOException {
    return Path.of("/proc/self").getFileSystem().getUserPrincipalLookupService()
        .lookupPrincipalByName(Long.toString(uid()));
  }

  /** A connection to the service at {@code socket}. */
  public static SocketChannel connect(Path socket) throws IOException {
    SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      channel.connect(UnixDomainSocketAddress.of(socket));
      return channel;
    } catch (IOException e) {
      channel.close();
      throw e;
    }
  }
}

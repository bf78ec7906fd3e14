package dev.vyre.cli;

import dev.vyre.cli.serve.ScanService;
import dev.vyre.cli.serve.ServiceClient;
import dev.vyre.cli.serve.ServiceProtocol;
import dev.vyre.cli.serve.ServiceSocket;
import dev.vyre.driver.error.InputException;
import dev.vyre.runtime.Backends;
import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.ResidentCorpus;
import dev.vyre.scan.ResidentSizing;
import dev.vyre.scan.ScanOptions;
import dev.vyre.runtime.wire.SlotLayout;
import java.io.IOException;
import java.net.SocketException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vyre serve}: the resident scan service ({@link ScanService}). */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Run a resident scan service in the foreground: one megakernel, started once, that every `vyre scan` of",
        "this user runs on while it is up (same output, same exit status; --no-server opts a scan out).",
        "Clients connect over a Unix domain socket only this user can reach (mode 0600 in a 0700 directory;",
        "peers checked with SO_PEERCRED). Ctrl-C or `vyre serve --stop` stops it."})
final class ServeCommand implements Callable<Integer> {

  @Option(names = "--socket", paramLabel = "PATH", description = "Where to listen (default: $VYRE_SOCKET, else"
      + " $XDG_RUNTIME_DIR/vyre/scan.sock, else /tmp/vyre-UID/scan.sock).")
  Path socket;

  @Option(names = "--backend", defaultValue = "auto", description = "auto | reference | cuda (default: ${DEFAULT-VALUE}).")
  String backend;

  @Option(names = "--max-scans", defaultValue = "4", paramLabel = "N",
      description = "Scans that run at once, each with its own chunk buffers; more clients wait (default: ${DEFAULT-VALUE}).")
  int maxScans;

  @Option(names = "--idle-exit", paramLabel = "DURATION", description = "Exit after no client for this long: 90s, 10m, 2h.")
  String idleExit;

  @Option(names = "--resident", paramLabel = "DIR", description = "Hold every file under DIR in device memory;"
      + " a scan of files under DIR reads them from there, at device-memory speed. Changed, new and deleted files"
      + " are seen before each such scan.")
  Path resident;

  @Option(names = "--resident-segment", defaultValue = "1073741824", paramLabel = "BYTES", hidden = true,
      description = "Bytes per device resource of the resident corpus (default: 1 GiB).")
  long residentSegment;

  @Option(names = "--warm-up-scans", defaultValue = "32", paramLabel = "N", description = "Scans of a generated tree"
      + " run before the first client, so that its scan runs in compiled code; a client's scan ends them (default:"
      + " ${DEFAULT-VALUE}; 0 for none).")
  int warmUpScans;

  @Option(names = "--status", description = "Print the running service's state: kernel, scans, clients, and exit.")
  boolean status;

  @Option(names = "--stop", description = "Stop the running service (scans in progress finish) and exit.")
  boolean stop;

  @Override
  public Integer call() throws IOException {
    Path at = socket != null ? socket : ServiceSocket.defaultPath();
    if (status || stop) {
      try {
        return ServiceClient.control(at, VersionInfo.buildId(), stop ? ServiceProtocol.STOP : ServiceProtocol.STATUS,
            System.out, System.err);
      } catch (SocketException | java.nio.file.NoSuchFileException notRunning) {
        System.err.println("vyre serve: no service is running at " + at + ". Fix: start one with `vyre serve`");
        return 1;
      }
    }
    if (warmUpScans < 0) {
      throw InputException.of("--warm-up-scans", warmUpScans + " is negative", "pass 0 for no warm-up, or more");
    }
    if (maxScans < 1 || maxScans > 64) {
      throw InputException.of("--max-scans", maxScans + " is outside 1..64", "pass between 1 and 64 scans at once");
    }
    Duration idle = idleExit == null ? null : duration(idleExit);
    // Before the kernel boots: a runtime that cannot check clients, or a directory others can enter, is refused at
    // once, not after CUDA's start-up.
    ServiceSocket.requirePeerCredentials();
    ServiceSocket.prepareDirectory(at);
    Backends.Choice choice = Backends.select(backend);
    ScanOptions lane = ScanOptions.forBackend(choice.backend().name());
    int slots = (int) Math.min(SlotLayout.MAX_ENCODED_RING_SLOTS, (long) lane.ringSlots() * maxScans);
    if (resident != null) {
      slots = Math.max(slots, ResidentSizing.ringSlots(lane));
    }
    Megakernel kernel = ScanCommand.bootstrap(Megakernel.builder().backend(choice), lane, slots);
    ScanService service;
    try {
      service = new ScanService(kernel, at, maxScans, VersionInfo.buildId(), System.err);
    } catch (IOException | RuntimeException e) {
      kernel.close();
      throw e;
    }
    if (resident != null) {
      long loadStarted = System.nanoTime();
      try {
        ResidentCorpus corpus = service.holdResident(resident, residentSegment);
        System.err.printf("vyre serve: resident %s: %d file(s), %d bytes in device memory (%d KiB of resources),"
            + " loaded in %.3f s%n", corpus.directory(), corpus.files(), corpus.bytes(), corpus.deviceBytes() >> 10,
            (System.nanoTime() - loadStarted) / 1e9);
      } catch (RuntimeException e) {
        service.close();
        throw e;
      }
    }
    Thread shutdown = Thread.ofPlatform().unstarted(service::close);
    if (!ShutdownHooks.add(shutdown)) {
      // Ctrl-C or SIGTERM came while the service started: it closes before it serves anyone.
      service.close();
      return ShutdownHooks.INTERRUPTED_STATUS;
    }
    System.err.println("vyre serve: listening at " + service.socket() + " (pid " + ProcessHandle.current().pid() + "; "
        + kernel.describe() + "; " + maxScans + " scans at once" + (idle != null ? "; exits after " + idleExit + " idle" : "")
        + "). Ctrl-C or `vyre serve --stop` stops it");
    service.startWarmUp(warmUpScans);
    service.serve(idle);
    ShutdownHooks.remove(shutdown);
    service.close();
    System.err.println("vyre serve: stopped");
    return 0;
  }

  /** 90s, 10m, 2h, or a number of seconds. */
  static Duration duration(String text) {
    try {
      char unit = text.charAt(text.length() - 1);
      long seconds = Character.isDigit(unit) ? Long.parseLong(text) : Long.parseLong(text.substring(0, text.length() - 1))
          * switch (unit) {
            case 's' -> 1;
            case 'm' -> 60;
            case 'h' -> 3600;
            default -> throw new NumberFormatException();
          };
      if (seconds < 1) {
        throw new NumberFormatException();
      }
      return Duration.ofSeconds(seconds);
    } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
      throw InputException.of("--idle-exit", "'" + text + "' is not a duration", "pass seconds, or a number with s, m or h:"
          + " 90s, 10m, 2h");
    }
  }
}

package dev.vyre.cli.serve;

import dev.vyre.cli.ScanEnvironment;
import dev.vyre.cli.VyreCommand;
import dev.vyre.driver.error.InputException;
import dev.vyre.driver.error.KernelException;
import dev.vyre.driver.error.VyreException;
import dev.vyre.observe.promotion.PromotionLoop;
import dev.vyre.policy.adapt.WorkerGroupLoop;
import dev.vyre.runtime.Megakernel;
import dev.vyre.scan.AhoCorasickCompiler;
import dev.vyre.scan.DfaTable;
import dev.vyre.scan.DfaTableCache;
import dev.vyre.scan.KernelResourcePool;
import dev.vyre.scan.PatternSet;
import dev.vyre.scan.ResidentCorpus;
import dev.vyre.scan.ScanFilter;
import dev.vyre.scan.ScanJob;
import dev.vyre.scan.ScanOptions;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code vyre serve}: one process owns the device and one persistent megakernel, started once, and
 * runs {@code vyre scan} command lines for clients over a Unix domain socket, so that they pay
 * neither the kernel's start-up nor the JVM's warm-up, and concurrent scans share one kernel instead
 * of one kernel each time-slicing the GPU.
 *
 * <p>Each client gets a thread of its own and, while it scans, one of {@code maxScans} lanes: its
 * job's chunk and hit buffers (taken from, and given back to, the kernel's {@link
 * KernelResourcePool}), so what one client can have in flight at once, in ring slots and staging
 * bytes, is its job's buffers, and the lanes share the kernel evenly; a client beyond them waits for
 * a lane. A client that goes mid-scan (its socket closes) has its scan stopped and its buffers
 * freed; a client that sends garbage gets an ERROR frame; a client of another user is refused.
 * None of these touches the other clients.
 */
public final class ScanService implements AutoCloseable {

  private final Megakernel kernel;
  private final KernelResourcePool pool;
  /** Clients often scan with the same patterns again: their tables are kept. */
  private final DfaTableCache tables = new DfaTableCache(16);
  private final Path socket;
  private final ServerSocketChannel server;
  private final UserPrincipal self;
  private final String build;
  private final Semaphore lanes;
  private final int maxScans;
  private final PrintStream log;
  private final Instant started = Instant.now();
  private final Map<Long, Client> active = new ConcurrentHashMap<>();
  private final AtomicLong nextClient = new AtomicLong();
  private final AtomicLong served = new AtomicLong();
  private final AtomicLong declined = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong broken = new AtomicLong();
  private final AtomicLong cancelled = new AtomicLong();
  private volatile long lastActivity = System.nanoTime();
  /** How long a connection may take to send its request before it is closed. */
  private volatile Duration requestTimeout = Duration.ofSeconds(10);
  private volatile boolean stopping;
  private boolean closed;
  /** The directory held in device memory ({@code --resident}); null for none. */
  private volatile ResidentCorpus resident;
  /** The launch policy's loop over the shared kernel; null with vyre.policy.loop=off. */
  private final WorkerGroupLoop policy;
  /** The promotion loop over the shared kernel (its tables' promotions are log lines); null with vyre.policy.loop=off. */
  private final PromotionLoop promotion;
  /** The thread of {@link #startWarmUp}; null when none was started. */
  private Thread warmUp;
  /** Set when a client asks for a scan or the service stops: the warm-up runs no further pass. */
  private volatile boolean warmUpEnds;
  /** Stops the warm-up's running pass; null between passes. */
  private volatile Runnable warmUpPassStop;

  /** A client being served: for {@code --status}. */
  private record Client(long id, long pid, String command, Instant since, boolean scanning) {}

  /**
   * Listens at {@code socket} for scans to run on {@code kernel}, which the service owns from now
   * on (it shuts it down when it closes).
   *
   * @throws InputException when another service answers at {@code socket}, or its directory is not
   *     private to this user
   */
  public ScanService(Megakernel kernel, Path socket, int maxScans, String build, PrintStream log) throws IOException {
    this.kernel = kernel;
    this.pool = new KernelResourcePool(kernel);
    this.socket = socket;
    this.build = build;
    this.maxScans = maxScans;
    this.lanes = new Semaphore(maxScans, true);
    this.log = log;
    ServiceSocket.requirePeerCredentials();
    this.self = ServiceSocket.self();
    ServiceSocket.prepareDirectory(socket);
    if (Files.exists(socket)) {
      try (SocketChannel existing = ServiceSocket.connect(socket)) {
        throw InputException.of(socket.toString(), "another vyre serve is listening there",
            "stop it first (vyre serve --stop), or pass --socket PATH for a second service");
      } catch (IOException stale) {
        // Left by a service that did not close: nothing listens, so it is taken over.
        Files.delete(socket);
      }
    }
    this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
    allocateLanes();
    // Sized for no work until a client comes; each scan wakes the groups it needs (a JFR event, not a log line).
    this.policy = WorkerGroupLoop.attach(kernel, 0, line -> log.println("vyre serve: " + line), change -> {});
    this.promotion = PromotionLoop.attach(kernel, line -> log.println("vyre serve: " + line));
  }

  public Path socket() {
    return socket;
  }

  /** Sets how long a connection may take to send its whole request (default 10 s). */
  public void requestTimeout(Duration timeout) {
    this.requestTimeout = timeout;
  }

  /**
   * Accepts clients until {@link #close()} or a STOP request, or until no client came for {@code
   * idleExit} (null: never).
   */
  public void serve(Duration idleExit) {
    if (idleExit != null) {
      Thread.ofPlatform().daemon().name("vyre-serve-idle").start(() -> exitWhenIdle(idleExit));
    }
    while (!stopping) {
      SocketChannel channel;
      try {
        channel = server.accept();
      } catch (ClosedChannelException closed) {
        break;
      } catch (IOException e) {
        log.println("vyre serve: accept failed: " + e.getMessage());
        continue;
      }
      lastActivity = System.nanoTime();
      long id = nextClient.incrementAndGet();
      Thread.ofPlatform().name("vyre-serve-client-" + id).start(() -> handle(id, channel));
    }
  }

  private void exitWhenIdle(Duration idleExit) {
    while (!stopping) {
      try {
        Thread.sleep(Math.min(1000, Math.max(1, idleExit.toMillis())));
      } catch (InterruptedException e) {
        return;
      }
      if (active.isEmpty() && System.nanoTime() - lastActivity > idleExit.toNanos()) {
        log.println("vyre serve: no client for " + idleExit.toSeconds() + " s; exiting");
        stop();
      }
    }
  }

  private void handle(long id, SocketChannel channel) {
    try (channel) {
      if (!ServiceSocket.samePeerUser(channel, self)) {
        refused.incrementAndGet();
        log.println("vyre serve: refused a client of another user");
        new ClientLink(channel).send(ServiceProtocol.ERROR, ServiceProtocol.utf8("vyre serve: this service serves only"
            + " its own user. Fix: start a service of your own (vyre serve)"));
        return;
      }
      DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel)));
      ClientLink link = new ClientLink(channel);
      ServiceProtocol.Header header;
      ServiceProtocol.ScanRequest request = null;
      // A connection that does not send its request in time is closed: it holds a thread, not a lane.
      Thread deadline = Thread.ofVirtual().name("vyre-serve-request-deadline").start(() -> {
        try {
          Thread.sleep(requestTimeout);
          channel.close();
        } catch (InterruptedException | IOException readInTime) {
          // The request came (interrupted), or the channel is closed already.
        }
      });
      try {
        header = ServiceProtocol.readHeader(in);
        if (header.kind() == ServiceProtocol.SCAN) {
          request = ServiceProtocol.readScan(in);
        }
        deadline.interrupt();
      } catch (VyreException | IOException bad) {
        deadline.interrupt();
        broken.incrementAndGet();
        String problem = bad instanceof VyreException ? bad.getMessage() : "the request ended early (" + bad + ")."
            + " Fix: connect with vyre scan";
        log.println("vyre serve: client " + id + ": bad request: " + problem);
        link.send(ServiceProtocol.ERROR, ServiceProtocol.utf8("vyre serve: bad request: " + problem));
        return;
      }
      switch (header.kind()) {
        case ServiceProtocol.STATUS -> {
          link.send(ServiceProtocol.STDOUT, ServiceProtocol.utf8(status()));
          link.exit(0);
        }
        case ServiceProtocol.STOP -> {
          link.send(ServiceProtocol.STDOUT, ServiceProtocol.utf8("vyre serve: stopping (pid " + ProcessHandle.current().pid()
              + ")\n"));
          link.exit(0);
          stop();
        }
        default -> {
          if (header.build().equals(build)) {
            scan(id, request, link);
          } else {
            // A client of another vyre (upgraded while this service ran) scans by itself.
            declined.incrementAndGet();
            link.send(ServiceProtocol.DECLINED, ServiceProtocol.utf8("the service runs vyre " + build + ", this is vyre "
                + header.build()));
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      log.println("vyre serve: client " + id + ": " + e);
    } finally {
      active.remove(id);
      lastActivity = System.nanoTime();
    }
  }

  private void scan(long id, ServiceProtocol.ScanRequest request, ClientLink link) {
    String command = String.join(" ", request.arguments());
    ServedScanEvent event = new ServedScanEvent();
    event.begin();
    event.clientPid = request.clientPid();
    event.arguments = command;
    active.put(id, new Client(id, request.clientPid(), command, Instant.now(), false));
    endWarmUp();
    link.watch();
    long waitStarted = System.nanoTime();
    try {
      lanes.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    event.laneWait = System.nanoTime() - waitStarted;
    try {
      if (link.gone()) {
        cancelled.incrementAndGet();
        event.outcome = "cancelled";
        return;
      }
      active.put(id, new Client(id, request.clientPid(), command, Instant.now(), true));
      String[] declinedWhy = new String[1];
      PrintStream err = new PrintStream(new FrameStream(link, ServiceProtocol.STDERR), true, StandardCharsets.UTF_8);
      ScanEnvironment environment = new ScanEnvironment(new FrameStream(link, ServiceProtocol.STDOUT), err,
          request.has(ServiceProtocol.STDOUT_TERMINAL), request.has(ServiceProtocol.STDERR_TERMINAL),
          Path.of(new String(request.workingDirectory(), StandardCharsets.UTF_8)), pool,
          reason -> declinedWhy[0] = reason, link::onGone, request.has(ServiceProtocol.STDIN_DATA), tables::compile,
          resident);
      event.status = VyreCommand.executeScan(environment, request.arguments().toArray(String[]::new));
      err.flush();
      if (declinedWhy[0] != null) {
        declined.incrementAndGet();
        event.outcome = "declined";
        link.send(ServiceProtocol.DECLINED, ServiceProtocol.utf8(declinedWhy[0]));
      } else if (link.gone()) {
        cancelled.incrementAndGet();
        event.outcome = "cancelled";
        log.println("vyre serve: client " + id + " (pid " + request.clientPid() + ") went away mid-scan; its scan stopped");
      } else {
        served.incrementAndGet();
        event.outcome = "served";
        link.exit(event.status);
      }
    } finally {
      lanes.release();
      event.commit();
      // A kernel that failed (a GPU fault) or was shut down serves no one: stop, so that clients scan
      // by themselves instead of each getting the same error.
      if (!kernel.isKernelRunning()) {
        KernelException failure = kernel.failure();
        log.println("vyre serve: the kernel stopped" + (failure != null ? " (" + failure.getMessage() + ")" : "")
            + "; no longer serving");
        stop();
      }
    }
  }

  /**
   * Starts warming the service up on a thread of its own: {@code passes} scans of a generated tree
   * ({@link ServiceWarmUp}) through the path a client's scan takes, one lane at a time, ended early
   * (its running pass stopped) by the first client's scan or by {@link #stop}. Its outcome is a log line.
   */
  public synchronized void startWarmUp(int passes) {
    if (warmUp == null && passes > 0) {
      warmUp = Thread.ofPlatform().daemon().name("vyre-serve-warm-up").start(() -> log.println("vyre serve: "
          + warmUp(passes)));
    }
  }

  /** The passes of {@link #startWarmUp}; returns what they did, for the log. */
  String warmUp(int passes) {
    long started = System.nanoTime();
    int ran = 0;
    try (ServiceWarmUp tree = ServiceWarmUp.generate()) {
      PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
      ScanEnvironment environment = new ScanEnvironment(OutputStream.nullOutputStream(), discard, false, false,
          tree.directory(), pool, reason -> { }, stop -> {
            warmUpPassStop = stop;
            if (warmUpEnds) {
              stop.run();
            }
          }, false, AhoCorasickCompiler::compile, null);
      while (ran < passes && !warmUpEnds && lanes.tryAcquire()) {
        try {
          VyreCommand.executeScan(environment, tree.arguments(ran));
        } finally {
          warmUpPassStop = null;
          lanes.release();
        }
        ran++;
      }
      String early = ran < passes ? "; ended early by a client's scan or the service's stop" : "";
      return String.format("warm-up: %d of %d scans of a generated tree (%d MB) in %.2f s%s", ran, passes,
          tree.bytes() >> 20, (System.nanoTime() - started) / 1e9, early);
    } catch (IOException | RuntimeException e) {
      return "warm-up failed after " + ran + " scans (" + e + "); clients are served all the same";
    }
  }

  private void endWarmUp() {
    warmUpEnds = true;
    Runnable stop = warmUpPassStop;
    if (stop != null) {
      stop.run();
    }
  }

  /**
   * Allocates every lane's buffers once, before the first client, by making and closing as many
   * jobs as there are lanes (a client would otherwise pay for pinning them).
   */
  private void allocateLanes() {
    DfaTable table = AhoCorasickCompiler.compile(PatternSet.of(List.of(new byte[] {'v'}), false, "lanes"));
    ScanOptions options = ScanOptions.forBackend(kernel.backendName());
    List<ScanJob> jobs = new ArrayList<>();
    try {
      for (int i = 0; i < maxScans; i++) {
        jobs.add(new ScanJob(pool, table, options));
      }
    } finally {
      jobs.forEach(ScanJob::close);
    }
  }

  /**
   * Loads every file under {@code directory} into device memory ({@link ResidentCorpus}), in
   * resources of {@code segmentBytes}, and from now on scans files under it from there: a client's
   * scan whose files all lie under it reads no file. Call before {@link #serve}; returns the corpus.
   */
  public ResidentCorpus holdResident(Path directory, long segmentBytes) {
    if (resident != null) {
      throw InputException.of(directory.toString(), "the service holds " + resident.directory() + " already",
          "pass --resident once");
    }
    // Small resources (tests) hold shorter overlaps; a scan with longer patterns reads the disk.
    resident = new ResidentCorpus(pool, directory, ScanFilter.NONE, segmentBytes,
        (int) Math.min(PatternSet.MAX_PATTERN_LENGTH, segmentBytes / 2));
    return resident;
  }

  /** What {@code vyre serve --status} prints. */
  String status() {
    StringBuilder text = new StringBuilder();
    long up = Duration.between(started, Instant.now()).toSeconds();
    text.append("vyre serve: pid ").append(ProcessHandle.current().pid()).append(", socket ").append(socket)
        .append(", up ").append(up).append(" s\n");
    text.append("kernel: ").append(kernel.describe()).append("; ").append(kernel.summary()).append('\n');
    text.append("scans: ").append(served.get()).append(" served, ").append(declined.get())
        .append(" declined (run by the client), ").append(cancelled.get()).append(" cancelled by their client, ")
        .append(broken.get()).append(" bad requests, ").append(refused.get()).append(" clients of other users refused\n");
    text.append("lanes: ").append(maxScans - lanes.availablePermits()).append(" of ").append(maxScans)
        .append(" scanning, ").append(lanes.getQueueLength()).append(" clients waiting; buffers ")
        .append(pool.allocatedBytes() >> 20).append(" MiB allocated, ").append(pool.freeBytes() >> 20).append(" MiB idle\n");
    text.append("patterns: ").append(tables.describe()).append('\n');
    ResidentCorpus corpus = resident;
    text.append("resident: ").append(corpus == null ? "none (vyre serve --resident DIR holds one)" : corpus.describe())
        .append('\n');
    List<Client> clients = new ArrayList<>(active.values());
    clients.sort((a, b) -> Long.compare(a.id, b.id));
    for (Client client : clients) {
      text.append("  client ").append(client.id).append(" pid ").append(client.pid)
          .append(client.scanning ? " scanning for " : " waiting for ")
          .append(Duration.between(client.since, Instant.now()).toMillis()).append(" ms: vyre scan ")
          .append(client.command).append('\n');
    }
    return text.toString();
  }

  /** Stops accepting; scans in progress finish. */
  public void stop() {
    stopping = true;
    endWarmUp();
    try {
      server.close();
    } catch (IOException e) {
      log.println("vyre serve: closing the socket failed: " + e.getMessage());
    }
  }

  /**
   * Stops accepting, waits for the scans in progress, removes the socket and shuts the kernel down.
   * Once: on SIGTERM both the shutdown hook and the main thread, whose accept loop the hook ended,
   * close the service, and the second must wait for the first, not for lanes the first holds.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    stop();
    if (warmUp != null) {
      try {
        // It deletes its tree before it ends.
        warmUp.join(Duration.ofSeconds(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    lanes.acquireUninterruptibly(maxScans);
    try {
      Files.deleteIfExists(socket);
    } catch (IOException e) {
      log.println("vyre serve: removing " + socket + " failed: " + e.getMessage());
    }
    if (policy != null) {
      policy.close();
    }
    if (promotion != null) {
      promotion.close();
    }
    if (resident != null) {
      resident.close();
    }
    kernel.close();
  }
}

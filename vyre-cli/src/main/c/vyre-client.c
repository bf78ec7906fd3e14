/*
 * The client of `vyre serve` without a JVM: the ./vyre launcher runs it for a `vyre scan` that a
 * running service will take, so that a served scan does not pay a JVM's start. It speaks the
 * protocol of dev.vyre.cli.serve.ServiceProtocol (ServiceClientSourceTest holds the constants below
 * to that class) and relays what comes back, byte for byte, exiting with the service's status.
 * Whatever the service does not answer (no service, another build, a declined request, an argument
 * that is not UTF-8) it leaves to the JVM: it exits NOT_SERVED having sent nothing to stdout, and
 * the launcher runs the scan in a JVM with the service off.
 *
 * Usage: vyre-client BUILD SOCKET ARGUMENT...   (the arguments after `scan`)
 *
 * With VYRE_SOURCES (a source tree) and VYRE_JAR (the jar built from it) set, as the launcher sets them,
 * it first checks that no source is newer than the jar, as the launcher's own check does, and leaves
 * the scan to the launcher (which builds) when one is: that check, a stat of every source, took the
 * launcher's shell longer than the served scan of a small file.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define VYRE_MAGIC 0x56595245
#define VYRE_VERSION 1
#define VYRE_SCAN 1
#define VYRE_STDOUT_TERMINAL 1
#define VYRE_STDERR_TERMINAL 2
#define VYRE_STDIN_DATA 4
#define VYRE_FRAME_STDOUT 1
#define VYRE_FRAME_STDERR 2
#define VYRE_FRAME_EXIT 3
#define VYRE_FRAME_DECLINED 4
#define VYRE_FRAME_ERROR 5
#define VYRE_MAX_FRAME_BYTES 65536
#define VYRE_CLOSED_OUTPUT_STATUS 141

/* The launcher's cue to run the scan in a JVM. */
#define NOT_SERVED 250

static char *request;
static size_t request_length, request_capacity;

static void put(const void *bytes, size_t length) {
  if (request_length + length > request_capacity) {
    request_capacity = (request_length + length) * 2 + 4096;
    request = realloc(request, request_capacity);
    if (request == NULL) {
      exit(NOT_SERVED);
    }
  }
  memcpy(request + request_length, bytes, length);
  request_length += length;
}

static void put_u8(unsigned value) {
  unsigned char b = (unsigned char) value;
  put(&b, 1);
}

static void put_u16(unsigned value) {
  put_u8(value >> 8);
  put_u8(value);
}

static void put_u32(uint32_t value) {
  put_u16(value >> 16);
  put_u16(value & 0xFFFF);
}

/*
 * A Java string: its UTF-16 units. Only valid UTF-8 is converted here; the JVM's client handles the
 * escapes it uses for other bytes, so anything else is not served.
 */
static void put_string(const char *text) {
  const unsigned char *s = (const unsigned char *) text;
  size_t units_at = request_length;
  uint32_t units = 0;
  put_u32(0);
  while (*s) {
    uint32_t c;
    int more;
    if (s[0] < 0x80) {
      c = s[0], more = 0;
    } else if ((s[0] & 0xE0) == 0xC0) {
      c = s[0] & 0x1F, more = 1;
    } else if ((s[0] & 0xF0) == 0xE0) {
      c = s[0] & 0x0F, more = 2;
    } else if ((s[0] & 0xF8) == 0xF0) {
      c = s[0] & 0x07, more = 3;
    } else {
      exit(NOT_SERVED);
    }
    for (int k = 1; k <= more; k++) {
      if ((s[k] & 0xC0) != 0x80) {
        exit(NOT_SERVED);
      }
      c = (c << 6) | (s[k] & 0x3F);
    }
    static const uint32_t smallest[] = {0, 0x80, 0x800, 0x10000};
    if (c < smallest[more] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
      exit(NOT_SERVED);
    }
    if (c >= 0x10000) {
      put_u16(0xD800 + ((c - 0x10000) >> 10));
      put_u16(0xDC00 + ((c - 0x10000) & 0x3FF));
      units += 2;
    } else {
      put_u16(c);
      units++;
    }
    s += more + 1;
  }
  for (int k = 0; k < 4; k++) {
    request[units_at + k] = (char) (units >> (24 - 8 * k));
  }
}

static int write_all(int fd, const char *bytes, size_t length) {
  while (length > 0) {
    ssize_t written = write(fd, bytes, length);
    if (written < 0 && errno == EINTR) {
      continue;
    }
    if (written <= 0) {
      return -1;
    }
    bytes += written;
    length -= (size_t) written;
  }
  return 0;
}

/* Reads exactly length bytes; 0 at a clean end before the first byte, -1 on a short read or error. */
static int read_exactly(int fd, unsigned char *into, size_t length) {
  size_t got = 0;
  while (got < length) {
    ssize_t n = read(fd, into + got, length - got);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return got == 0 && n == 0 ? 0 : -1;
    }
    got += (size_t) n;
  }
  return 1;
}

static int stdin_holds_data(void) {
  struct stat st;
  return fstat(0, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode) || S_ISSOCK(st.st_mode));
}

static int newer_than(const struct stat *st, const struct timespec *than) {
  return st->st_mtim.tv_sec > than->tv_sec || (st->st_mtim.tv_sec == than->tv_sec && st->st_mtim.tv_nsec > than->tv_nsec);
}

/*
 * Whether NAME under the directory DIRECTORY (a descriptor), or with RECURSE anything beneath it, is
 * newer than THAN; hidden names are not looked at, nor symbolic links followed into, as the launcher's
 * `**` glob does. A name that is missing is not newer.
 */
static int path_newer(int directory, const char *name, const struct timespec *than, int recurse) {
  struct stat st;
  if (fstatat(directory, name, &st, 0) != 0) {
    return 0;
  }
  if (newer_than(&st, than)) {
    return 1;
  }
  struct stat link;
  if (!recurse || !S_ISDIR(st.st_mode) || fstatat(directory, name, &link, AT_SYMLINK_NOFOLLOW) != 0
      || !S_ISDIR(link.st_mode)) {
    return 0;
  }
  int fd = openat(directory, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *entries = fd < 0 ? NULL : fdopendir(fd);
  if (entries == NULL) {
    if (fd >= 0) {
      close(fd);
    }
    return 0;
  }
  int found = 0;
  struct dirent *entry;
  while (!found && (entry = readdir(entries)) != NULL) {
    found = entry->d_name[0] != '.' && path_newer(fd, entry->d_name, than, 1);
  }
  closedir(entries);
  return found;
}

/* Whether pom.xml, a module's pom.xml, or anything under a module's src/main in SOURCES is newer than JAR. */
static int sources_newer(const char *sources, const char *jar) {
  struct stat built;
  if (stat(jar, &built) != 0) {
    return 1;
  }
  int root = open(sources, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *modules = root < 0 ? NULL : fdopendir(root);
  if (modules == NULL) {
    return 1;
  }
  int found = path_newer(root, "pom.xml", &built.st_mtim, 0);
  struct dirent *module;
  while (!found && (module = readdir(modules)) != NULL) {
    if (module->d_name[0] == '.') {
      continue;
    }
    char path[4096];
    found = (snprintf(path, sizeof path, "%s/pom.xml", module->d_name) < (int) sizeof path
                 && path_newer(root, path, &built.st_mtim, 0))
        || (snprintf(path, sizeof path, "%s/src/main", module->d_name) < (int) sizeof path
            && path_newer(root, path, &built.st_mtim, 1));
  }
  closedir(modules);
  return found;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: vyre-client BUILD SOCKET ARGUMENT...\n");
    return NOT_SERVED;
  }
  const char *build = argv[1], *socket_path = argv[2];
  int verbose = 0;
  for (int i = 3; i < argc; i++) {
    verbose |= strcmp(argv[i], "--verbose") == 0;
  }
  signal(SIGPIPE, SIG_IGN);
  const char *sources = getenv("VYRE_SOURCES"), *jar = getenv("VYRE_JAR");
  if (sources != NULL && jar != NULL && sources_newer(sources, jar)) {
    if (verbose) {
      fprintf(stderr, "vyre scan: sources in %s are newer than %s; leaving the scan to the launcher\n", sources, jar);
    }
    return NOT_SERVED;
  }

  struct sockaddr_un address = {.sun_family = AF_UNIX};
  if (strlen(socket_path) >= sizeof address.sun_path) {
    return NOT_SERVED;
  }
  strcpy(address.sun_path, socket_path);
  int service = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (service < 0 || connect(service, (struct sockaddr *) &address, sizeof address) != 0) {
    if (verbose) {
      fprintf(stderr, "vyre scan: no service answers at %s (%s); scanning in this process\n", socket_path, strerror(errno));
    }
    return NOT_SERVED;
  }
  /* Only a service of this user may see the command line and write our output. */
  struct ucred peer;
  socklen_t peer_length = sizeof peer;
  if (getsockopt(service, SOL_SOCKET, SO_PEERCRED, &peer, &peer_length) != 0 || peer.uid != getuid()) {
    return NOT_SERVED;
  }

  char directory[4096];
  if (getcwd(directory, sizeof directory) == NULL) {
    return NOT_SERVED;
  }
  put_u32(VYRE_MAGIC);
  put_u16(VYRE_VERSION);
  put_string(build);
  put_u8(VYRE_SCAN);
  uint64_t pid = (uint64_t) getpid();
  put_u32((uint32_t) (pid >> 32));
  put_u32((uint32_t) pid);
  put_u8((isatty(1) ? VYRE_STDOUT_TERMINAL : 0) | (isatty(2) ? VYRE_STDERR_TERMINAL : 0)
      | (stdin_holds_data() ? VYRE_STDIN_DATA : 0));
  /* The directory goes as its bytes, which must be UTF-8 (put_string checks, then its units are dropped). */
  size_t directory_at = request_length;
  put_string(directory);
  request_length = directory_at;
  put_u32((uint32_t) strlen(directory));
  put(directory, strlen(directory));
  put_u32((uint32_t) (argc - 3));
  for (int i = 3; i < argc; i++) {
    put_string(argv[i]);
  }
  if (write_all(service, request, request_length) != 0) {
    return NOT_SERVED;
  }
  if (verbose) {
    fprintf(stderr, "vyre scan: through the service at %s\n", socket_path);
  }

  static unsigned char payload[VYRE_MAX_FRAME_BYTES];
  int relayed = 0;
  for (;;) {
    unsigned char header[5];
    int got = read_exactly(service, header, sizeof header);
    if (got <= 0) {
      if (!relayed) {
        fprintf(stderr, "vyre scan: the service closed the connection without an answer; scanning in this process\n");
        return NOT_SERVED;
      }
      fprintf(stderr, "vyre scan: the service closed the connection before the scan ended. Fix: run the scan again"
          " (with --no-server to scan in this process), and see vyre serve's own output\n");
      return 2;
    }
    uint32_t length = (uint32_t) header[1] << 24 | (uint32_t) header[2] << 16 | (uint32_t) header[3] << 8 | header[4];
    if (length > VYRE_MAX_FRAME_BYTES || read_exactly(service, payload, length) != 1) {
      fprintf(stderr, "vyre scan: the service at %s sent a broken frame. Fix: run the scan with --no-server, and"
          " restart vyre serve\n", socket_path);
      return 2;
    }
    switch (header[0]) {
      case VYRE_FRAME_STDOUT:
        relayed = 1;
        if (write_all(1, (const char *) payload, length) != 0) {
          /* Closing the socket stops the service's scan; nothing more is worth printing. */
          return VYRE_CLOSED_OUTPUT_STATUS;
        }
        break;
      case VYRE_FRAME_STDERR:
        relayed = 1;
        write_all(2, (const char *) payload, length);
        break;
      case VYRE_FRAME_EXIT:
        return length >= 4 ? (int) ((uint32_t) payload[0] << 24 | (uint32_t) payload[1] << 16
            | (uint32_t) payload[2] << 8 | payload[3]) : 2;
      case VYRE_FRAME_DECLINED:
        if (verbose) {
          fprintf(stderr, "vyre scan: the service declined (%.*s); scanning in this process\n", (int) length, payload);
        }
        return NOT_SERVED;
      case VYRE_FRAME_ERROR:
        write_all(2, (const char *) payload, length);
        write_all(2, "\n", 1);
        return 2;
      default:
        fprintf(stderr, "vyre scan: the service at %s sent a frame of unknown type %d. Fix: run the same vyre for"
            " vyre scan and vyre serve\n", socket_path, header[0]);
        return 2;
    }
  }
}

package dev.vyre.cli;

/**
 * JVM shutdown hooks for the commands that must finish something on Ctrl-C or SIGTERM (flush the
 * lines printed, sync a replay log, close a service). A signal may come before a command registers
 * its hook, even before its first line ran: the JVM then refuses the hook ("Shutdown in progress"),
 * which a command must take as that signal, not as a bug.
 */
final class ShutdownHooks {

  /**
   * 128 + SIGINT, as a shell shows for grep stopped by Ctrl-C: what a command returns when a signal
   * came before it began (the JVM exits with the signal's own status).
   */
  static final int INTERRUPTED_STATUS = 128 + 2;

  private ShutdownHooks() {}

  /** Registers {@code hook}; false when the JVM is already shutting down (a signal came first). */
  static boolean add(Thread hook) {
    try {
      Runtime.getRuntime().addShutdownHook(hook);
      return true;
    } catch (IllegalStateException shuttingDown) {
      return false;
    }
  }

  /** Unregisters {@code hook}; once the JVM is shutting down it runs (or ran) instead. */
  static void remove(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The hook runs now.
    }
  }
}

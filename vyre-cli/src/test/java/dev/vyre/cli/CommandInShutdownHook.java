package dev.vyre.cli;

/**
 * A child JVM's main for {@link ShutdownHooksTest}: runs {@code vyre ARGS} inside a shutdown hook, where
 * the JVM refuses every new hook as it does once a signal arrived, and prints {@code status N} on stdout.
 */
final class CommandInShutdownHook {

  private CommandInShutdownHook() {}

  public static void main(String[] args) {
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
      int status = VyreCommand.execute(args);
      System.out.println("status " + status);
      System.out.flush();
    }));
  }
}

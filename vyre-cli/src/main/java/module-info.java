/** The {@code vyre} command. */
module dev.vyre.cli {
  requires dev.vyre.bench;
  requires dev.vyre.cuda;
  requires dev.vyre.graph;
  requires dev.vyre.io;
  requires dev.vyre.observe;
  requires dev.vyre.policy;
  requires dev.vyre.scan;
  requires com.fasterxml.jackson.databind;
  requires info.picocli;
  // SO_PEERCRED: vyre serve checks who connects.
  requires jdk.net;
  requires jdk.jfr;

  // picocli reads and sets the commands' annotated fields reflectively.
  opens dev.vyre.cli to info.picocli;
  opens dev.vyre.cli.conform to info.picocli;
  opens dev.vyre.cli.graph to info.picocli;
  opens dev.vyre.cli.policy to info.picocli;
  opens dev.vyre.cli.telemetry to info.picocli;

  uses dev.vyre.cli.conform.ConformModule;

  // Library warnings print as the command's own messages (the jar runs on the class path, where
  // META-INF/services names it).
  provides java.lang.System.LoggerFinder with dev.vyre.cli.CliLoggerFinder;

  provides dev.vyre.cli.conform.ConformModule with
      dev.vyre.cli.conform.PlannerConformModule,
      dev.vyre.cli.policy.PolicyConformModule,
      dev.vyre.cli.telemetry.TelemetryConformModule;
}

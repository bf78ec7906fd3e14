package dev.vyre.cli.serve;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** JFR event committed for every scan request {@code vyre serve} answers. */
@Name("dev.vyre.ServedScan")
@Label("vyre Served Scan")
@Category({"vyre", "Service"})
@Description("One vyre scan run by the resident service for a client: how it ended, how long it waited for a lane.")
final class ServedScanEvent extends Event {

  @Label("Client Pid")
  long clientPid;

  @Label("Arguments")
  String arguments;

  @Label("Outcome")
  @Description("served, declined (the client scans by itself), cancelled (the client went away)")
  String outcome;

  @Label("Exit Status")
  int status;

  @Label("Lane Wait")
  @Timespan(Timespan.NANOSECONDS)
  long laneWait;
}

package dev.vyre.policy.adapt;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** JFR event committed each time the worker-group loop changes a kernel's active worker groups. */
@Name("dev.vyre.WorkerGroupsChanged")
@Label("vyre Worker Groups Changed")
@Category({"vyre", "Policy"})
@Description("The launch policy shed or woke worker groups of a running megakernel.")
final class WorkerGroupsChangedEvent extends Event {

  @Label("Kernel")
  String kernel;

  @Label("From")
  int from;

  @Label("To")
  int to;

  @Label("Worker Groups")
  int groups;

  @Label("Queue Length")
  @Description("Tasks waiting or running when the policy decided")
  long queueLen;

  @Label("Pressure")
  String pressure;

  @Label("Topology")
  String topology;
}

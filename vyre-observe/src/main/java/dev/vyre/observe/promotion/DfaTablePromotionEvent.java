package dev.vyre.observe.promotion;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** JFR event committed for each promotion, demotion and refusal of the promotion loop. */
@Name("dev.vyre.DfaTablePromotion")
@Label("vyre DFA Table Promotion")
@Category({"vyre", "Policy"})
@Description("The promotion loop promoted, demoted or did not promote a DFA table of a running megakernel.")
final class DfaTablePromotionEvent extends Event {

  @Label("Kernel")
  String kernel;

  @Label("Kind")
  @Description("promoted, demoted, refused or unavailable")
  String kind;

  @Label("Table Handle")
  int tableHandle;

  @Label("Detail")
  String detail;

  @Label("Hot Count")
  @Description("Sightings of the table's DFA_STEP tasks in the window: the policy's hot_opcode_count")
  long hotCount;

  @Label("Hot Threshold")
  long hotThreshold;

  @Label("Route")
  String route;

  @Label("Queue Length")
  long queueLen;
}

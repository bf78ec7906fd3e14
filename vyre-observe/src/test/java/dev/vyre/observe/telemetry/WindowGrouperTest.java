package dev.vyre.observe.telemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class WindowGrouperTest {

  private static int[] window(int[] grouped, int index) {
    return Arrays.copyOfRange(grouped, index * WindowGrouper.STRIDE, (index + 1) * WindowGrouper.STRIDE);
  }

  private static void add(WindowGrouper grouper, int ticket, int opcode, int tenant, int classTag, int status) {
    grouper.reserve(1);
    grouper.add(ticket, opcode, tenant, classTag, status);
  }

  @Test
  void groupsByTicketThenOpcodeAndTakesTheTenantOfTheFirstSlot() {
    WindowGrouper grouper = new WindowGrouper();
    for (int ticket = 999; ticket >= 0; ticket--) {
      add(grouper, ticket, 9, ticket + 1, 0, 1);
      add(grouper, ticket, 9, 77, 1, 3);
    }
    add(grouper, -1, 2, 5, 2, 0);
    int[] grouped = grouper.group();
    assertEquals(1001, grouper.windowCount());
    for (int ticket = 0; ticket < 1000; ticket++) {
      assertArrayEquals(new int[] {ticket, 9, ticket + 1, 1, 1, 1, 0, 1, 0, 0, 0, 0}, window(grouped, ticket));
    }
    assertArrayEquals(new int[] {-1, 2, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0}, window(grouped, 1000));
    grouper.clear();
    add(grouper, 5, 1, 2, 7, 0);
    assertArrayEquals(new int[] {5, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0}, window(grouper.group(), 0));
    grouper.clear();
    grouper.group();
    assertEquals(0, grouper.windowCount());
  }

  /** The radix sort orders (ticket, opcode) unsigned and keeps ring order within a window, whichever bytes differ. */
  @Property(tries = 300)
  void groupsMatchASortedMap(@ForAll @Size(max = 300) int[] tickets, @ForAll @Size(min = 1, max = 5) int[] opcodes) {
    WindowGrouper grouper = new WindowGrouper();
    TreeMap<Long, Integer> firstTenant = new TreeMap<>(Long::compareUnsigned);
    for (int i = 0; i < tickets.length; i++) {
      int opcode = opcodes[i % opcodes.length];
      add(grouper, tickets[i], opcode, i, 0, 0);
      firstTenant.putIfAbsent(Integer.toUnsignedLong(tickets[i]) << 32 | Integer.toUnsignedLong(opcode), i);
    }
    int[] grouped = grouper.group();
    assertEquals(firstTenant.size(), grouper.windowCount());
    int index = 0;
    for (var window : firstTenant.entrySet()) {
      int[] words = window(grouped, index++);
      assertEquals((int) (window.getKey() >>> 32), words[WindowGrouper.TICKET]);
      assertEquals((int) (long) window.getKey(), words[WindowGrouper.OPCODE]);
      assertEquals(window.getValue(), words[WindowGrouper.TENANT]);
    }
  }
}

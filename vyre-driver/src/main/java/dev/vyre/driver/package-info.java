/**
 * The backend-neutral arithmetic every ported vyre function relies on: unsigned 32- and 64-bit values
 * ({@link dev.vyre.driver.Unsigned}), checked counts whose overflow becomes a typed error naming the
 * field ({@link dev.vyre.driver.Accounting}), lock-free counters that never wrap
 * ({@link dev.vyre.driver.AtomicAccounting}) and basis-point ratios computed as vyre computes them
 * ({@link dev.vyre.driver.BasisPoints}). The error hierarchy lives in {@code dev.vyre.driver.error}
 * and the planners in {@link dev.vyre.driver.planner}; docs/PORTS.md, "Numeric conventions", says
 * which of vyre's rules these reproduce.
 */
package dev.vyre.driver;

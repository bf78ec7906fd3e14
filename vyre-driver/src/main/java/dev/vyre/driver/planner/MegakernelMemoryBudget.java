package dev.vyre.driver.planner;

/**
 * vyre's {@code MegakernelMemoryBudget}: the device memory a candidate plan needs and the budget
 * the caller approved, in unsigned bytes.
 *
 * @param requiredBytes estimated resident plus transient bytes of the plan
 * @param budgetBytes caller-approved device-memory budget
 */
public record MegakernelMemoryBudget(long requiredBytes, long budgetBytes) {}

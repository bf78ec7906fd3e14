/**
 * The error hierarchy every module throws. {@link dev.vyre.driver.error.VyreException} is the root:
 * vyre's backend errors ({@link dev.vyre.driver.error.BackendException}, with frozen ids in
 * {@link dev.vyre.driver.error.ErrorCode}) and the protocol, pipeline, plan, input and kernel errors.
 * Each family names its variants in an enum, every message ends with a {@code Fix:} sentence, and
 * {@link dev.vyre.driver.error.RetryClass} says whether a failure may be retried. docs/ERRORS.md
 * lists the families, their variants and the exit status the {@code vyre} command gives each.
 */
package dev.vyre.driver.error;

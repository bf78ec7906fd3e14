/**
 * Multi-pattern scanning, the engine behind {@code vyre scan}. A {@link dev.vyre.scan.PatternSet}
 * of literals is compiled by {@link dev.vyre.scan.AhoCorasickCompiler} into a
 * {@link dev.vyre.scan.DfaTable}; {@link dev.vyre.scan.ScanTargets} lists the files the way
 * {@code grep -r} does, and {@link dev.vyre.scan.ScanJob} reads them in chunks into kernel resources
 * and scans each with DFA_STEP tasks, reporting a {@link dev.vyre.scan.FileResult} per file and a
 * {@link dev.vyre.scan.ScanSummary}.
 */
package dev.vyre.scan;

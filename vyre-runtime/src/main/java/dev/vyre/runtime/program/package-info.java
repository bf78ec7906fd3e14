/**
 * Slot programs: a text form with one task per line, so a person can try the megakernel without
 * writing Java ({@code vyre run FILE}). {@link dev.vyre.runtime.program.SlotProgram} parses and
 * validates a program and gives its tasks.
 */
package dev.vyre.runtime.program;

/**
 * Promotion in the loop: which DFA tables a running kernel's DFA_STEP tasks use most, counted in a
 * count-min sketch from ring snapshots, and the launch policy's promotion route applied to the
 * hottest one (docs/POLICY.md, "Promotion").
 */
package dev.vyre.observe.promotion;

/**
 * vyre's continuation task ABI: {@link dev.vyre.policy.workitem.TaskWorkItem} is one 16-word task
 * ({@link dev.vyre.policy.workitem.TaskLayout}) with its {@link dev.vyre.policy.workitem.TaskState},
 * {@link dev.vyre.policy.workitem.TaskPriority} and checked transitions;
 * {@link dev.vyre.policy.workitem.AutomataStateIndex} carries an automata state and byte index as such a
 * task (docs/PORTS.md, "Continuation tasks").
 */
package dev.vyre.policy.workitem;

/**
 * Where each decision of a resume goes: to LangGraph as a resume value, or to a sub-agent made by
 * `agentTool` together with its continuation.
 */
import {
  type Action,
  type Continuation,
  type Decision,
  type Decisions,
  listActions,
  splitActionId,
} from '@agent-continuations/core';
import { type Children, childrenOf } from './children';

/**
 * Decisions LangGraph answers itself (their action id has an interrupt in `refs`), and for each
 * sub-agent made by `agentTool` that waits, its continuation and the decisions for it.
 */
export function splitDecisions(
  continuation: Continuation,
  decisions: Decisions,
  refs: Record<string, unknown>,
) {
  const direct = new Map<string, Decision>();
  // Null-prototype: an action id such as `__proto__/x` stays a plain key.
  const nested = Object.create(null) as Decisions;
  for (const [id, decision] of Object.entries(decisions)) {
    if (splitActionId(id).rest === undefined || id in refs) direct.set(id, decision);
    else nested[id] = decision;
  }
  const waiting = new Map<string, Continuation>();
  for (const entry of continuation.pending)
    if (entry.kind === 'agent') waiting.set(entry.toolCallId, entry.child);
  const children: Children = childrenOf(waiting, nested);
  return { direct, children };
}

/** Each pending action by id, with what answering it needs to know. */
export function actionsById(continuation: Continuation): Map<string, Action> {
  return new Map(listActions(continuation).map((action) => [action.id, action]));
}

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
import type { Children } from './children';

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
  const nested = new Map<string, Decisions>();
  for (const [id, decision] of Object.entries(decisions)) {
    const { head, rest } = splitActionId(id);
    if (rest === undefined || id in refs) direct.set(id, decision);
    else nested.set(head, { ...nested.get(head), [rest]: decision });
  }
  const children: Children = {};
  for (const entry of continuation.pending) {
    if (entry.kind !== 'agent') continue;
    const group = nested.get(entry.toolCallId);
    children[entry.toolCallId] = group
      ? { continuation: entry.child, decisions: group }
      : { continuation: entry.child };
  }
  return { direct, children };
}

/** Each pending action by id, with what answering it needs to know. */
export function actionsById(continuation: Continuation): Map<string, Action> {
  return new Map(listActions(continuation).map((action) => [action.id, action]));
}

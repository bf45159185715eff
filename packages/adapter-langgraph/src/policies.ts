/**
 * A graph's own human-in-the-loop policy per action: the description and the allowed decisions
 * that langchain's human-in-the-loop middleware (`description`, `allowedDecisions`) or LangGraph's
 * `HumanInterrupt` (`description`, `config.allow_*`) gave it. The format carries it in each pending
 * entry, where the core checks it before anything runs; continuations written before it did keep
 * it only in their LangGraph state, which {@link upgradePolicies} reads into the entries.
 */
import { type Continuation, listActions } from '@agent-continuations/core';
import type { DecisionKind, InterruptRef } from './graph-state';

/** What a graph's policy says about one action. */
export interface ActionPolicy {
  description?: string;
  /** The decisions allowed: `approve`, `edit` (approve with edited `args`), `reject`, `input`. */
  allowedDecisions?: DecisionKind[];
}

/**
 * The graph's policy for each pending action of a continuation, by action id, at every depth
 * (actions without one are left out).
 *
 * @deprecated Each action carries its policy: read `action.description` and
 * `action.allowedDecisions` (the core refuses a decision they do not allow).
 *
 * @example
 * ```ts
 * const policies = actionPolicies(result.continuation);
 * ```
 */
export function actionPolicies(continuation: Continuation): Record<string, ActionPolicy> {
  const found: Record<string, ActionPolicy> = {};
  for (const action of listActions(upgradePolicies(continuation))) {
    const policy: ActionPolicy = {};
    if (action.description !== undefined) policy.description = action.description;
    if (action.allowedDecisions) policy.allowedDecisions = [...action.allowedDecisions];
    if (Object.keys(policy).length > 0) found[action.id] = policy;
  }
  return found;
}

/**
 * A LangGraph continuation whose pending entries carry the policy its state's interrupts hold, at
 * every LangGraph depth: what a continuation written before the format had the fields needs
 * before it is checked or shown. The same object when no entry lacks what its interrupt says.
 */
export function upgradePolicies(continuation: Continuation): Continuation {
  const refs = refsOf(continuation);
  let changed = false;
  const pending = continuation.pending.map((entry) => {
    if (entry.kind === 'agent') {
      const child = upgradePolicies(entry.child);
      if (child === entry.child) return entry;
      changed = true;
      return { ...entry, child };
    }
    const ref = Object.hasOwn(refs, entry.toolCallId) ? refs[entry.toolCallId] : undefined;
    const fill: ActionPolicy = {};
    if (entry.description === undefined && typeof ref?.description === 'string')
      fill.description = ref.description;
    if (entry.allowedDecisions === undefined && Array.isArray(ref?.allowed) && ref.allowed.length > 0)
      fill.allowedDecisions = [...new Set(ref.allowed)];
    if (Object.keys(fill).length === 0) return entry;
    changed = true;
    return { ...entry, ...fill };
  });
  return changed ? { ...continuation, pending } : continuation;
}

/** The interrupt references a LangGraph continuation's state holds (none for other continuations). */
export function refsOf(continuation: Continuation): Record<string, InterruptRef> {
  if (continuation.agent.framework !== 'langgraph') return {};
  const state = continuation.state as { interrupts?: unknown } | undefined;
  const refs = state?.interrupts;
  if (typeof refs !== 'object' || refs === null || Array.isArray(refs)) return {};
  return refs as Record<string, InterruptRef>;
}

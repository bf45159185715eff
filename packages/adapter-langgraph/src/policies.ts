/**
 * A graph's own human-in-the-loop policy per action: the description and the allowed decisions
 * that langchain's human-in-the-loop middleware (`description`, `allowedDecisions`) or LangGraph's
 * `HumanInterrupt` (`description`, `config.allow_*`) gave it. Kept in the continuation's LangGraph
 * state and, since the format carries it, in the pending entries and actions themselves, where the
 * core checks it before anything runs.
 */
import { type Continuation, checkAllowed, type Decision } from '@agent-continuations/core';
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
 * @example
 * ```ts
 * const policies = actionPolicies(result.continuation);
 * for (const action of result.actions) {
 *   const policy = policies[action.id];
 *   render(action, policy?.description, policy?.allowedDecisions ?? ['approve', 'edit', 'reject']);
 * }
 * ```
 */
export function actionPolicies(continuation: Continuation, prefix = ''): Record<string, ActionPolicy> {
  const found: Record<string, ActionPolicy> = {};
  for (const [id, ref] of Object.entries(refsOf(continuation))) {
    const policy = policyOf(ref);
    if (policy) found[prefix + id] = policy;
  }
  for (const entry of continuation.pending) {
    if (entry.kind === 'agent')
      Object.assign(found, actionPolicies(entry.child, `${prefix}${entry.toolCallId}/`));
  }
  return found;
}

/**
 * Refuse, with the core's `DECISION_NOT_ALLOWED`, a decision the graph's policy does not allow for
 * its action, before anything runs. New continuations carry the policy in their pending entries,
 * where the core checks it; this reads the interrupt references of those written before, and of
 * a graph that asked only during this resume.
 */
export function checkPolicies(
  decisions: Iterable<readonly [string, Decision]>,
  refs: Record<string, InterruptRef>,
): void {
  for (const [id, decision] of decisions) checkAllowed({ id, allowedDecisions: refs[id]?.allowed }, decision);
}

/** The interrupt references a LangGraph continuation's state holds (none for other continuations). */
export function refsOf(continuation: Continuation): Record<string, InterruptRef> {
  if (continuation.agent.framework !== 'langgraph') return {};
  const state = continuation.state as { interrupts?: unknown } | undefined;
  const refs = state?.interrupts;
  if (typeof refs !== 'object' || refs === null || Array.isArray(refs)) return {};
  return refs as Record<string, InterruptRef>;
}

function policyOf(ref: InterruptRef): ActionPolicy | undefined {
  const policy: ActionPolicy = {};
  if (typeof ref.description === 'string') policy.description = ref.description;
  if (Array.isArray(ref.allowed)) policy.allowedDecisions = [...ref.allowed];
  return Object.keys(policy).length > 0 ? policy : undefined;
}

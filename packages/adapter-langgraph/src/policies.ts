/**
 * A graph's own human-in-the-loop policy per action: the description and the allowed decisions
 * that langchain's human-in-the-loop middleware (`description`, `allowedDecisions`) or LangGraph's
 * `HumanInterrupt` (`description`, `config.allow_*`) gave it. Kept in the continuation's LangGraph
 * state, checked before anything runs.
 *
 * Framework-neutral in substance: a candidate for `description` / `allowed` fields on the core's
 * pending entries and actions.
 */
import { type Continuation, ContinuationError, type Decision } from '@agent-continuations/core';
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

/** The kind of a decision, as a policy names it. */
export function decisionKind(decision: Decision): DecisionKind {
  if (decision.type === 'approve') return decision.args === undefined ? 'approve' : 'edit';
  return decision.type;
}

/**
 * Refuse (`WRONG_DECISION_KIND`) a decision the graph's policy does not allow for its action,
 * before anything runs.
 */
export function checkPolicies(
  decisions: Iterable<readonly [string, Decision]>,
  refs: Record<string, InterruptRef>,
): void {
  for (const [id, decision] of decisions) {
    const allowed = refs[id]?.allowed;
    const kind = decisionKind(decision);
    if (!allowed || allowed.includes(kind)) continue;
    throw new ContinuationError(
      'WRONG_DECISION_KIND',
      `The graph allows only ${allowed.join(', ')} for action "${id}"; this decision is an ${kind}.`,
      { details: { actionId: id, kind, allowed } },
    );
  }
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

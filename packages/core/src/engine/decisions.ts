/**
 * Checking decisions before anything runs: every id must name a pending action, every decision
 * must fit its action, edited arguments and answers must pass the tools' schemas.
 */

import { ContinuationError } from '../errors';
import type { AllowedDecision, AuditEntry, Continuation } from '../format/format';
import { checkJson, jsonPath, quote } from '../format/json';
import { decisionIssue } from '../format/validate';
import { findAction, listActions, splitActionId } from './actions';
import type { Decision, Decisions } from './protocol';
import type { ToolDefinition } from './tools';
import { validateArgs } from './turn';

/**
 * What a decision is, in the terms of an action's `allowedDecisions`: an approval with edited
 * arguments is an `edit`.
 *
 * @example
 * ```ts
 * decisionKind({ type: 'approve', args: { amount: 10 } }); // 'edit'
 * ```
 */
export function decisionKind(decision: Decision): AllowedDecision {
  return decision.type === 'approve' && decision.args !== undefined ? 'edit' : decision.type;
}

/**
 * Refuse, with `DECISION_NOT_ALLOWED`, a decision the action's own policy does not allow. The one
 * place the rule lives: the core's resume, the console, links and chat routes all come here.
 *
 * @example
 * ```ts
 * checkAllowed(action, { type: 'approve' }); // throws when action.allowedDecisions is ['reject']
 * ```
 */
export function checkAllowed(
  action: { id: string; allowedDecisions?: readonly AllowedDecision[] | undefined },
  decision: Decision,
): void {
  const allowed = action.allowedDecisions;
  if (allowed === undefined) return;
  const kind = decisionKind(decision);
  if (allowed.includes(kind)) return;
  throw new ContinuationError(
    'DECISION_NOT_ALLOWED',
    `Action ${quote(action.id)} does not allow the decision "${kind}" (allowed: ${allowed.join(', ')}).`,
    {
      path: jsonPath([action.id, 'type']),
      details: { id: action.id, decision: kind, allowed: [...allowed] },
    },
  );
}

/**
 * Validate `decisions` against `continuation` and the agent's tools, recursing into sub-agents
 * made with `agentTool`. Throws a {@link ContinuationError}; returns when all is well.
 *
 * @example
 * ```ts
 * // In an approval API, before accepting a human's decisions:
 * await checkDecisions(continuation, { [actionId]: { type: 'approve' } }, agent.tools);
 * ```
 */
export async function checkDecisions(
  continuation: Continuation,
  decisions: Decisions,
  tools: ReadonlyMap<string, ToolDefinition>,
  options: { allowChangedAgent?: boolean } = {},
): Promise<void> {
  checkDecisionsShape(decisions);
  // Keyed by tool-call id, grouped into null-prototype objects: an id segment such as
  // `__proto__` (the model chose it) is a key like any other, and its decision is checked.
  const nested = new Map<string, Record<string, Decision>>();
  for (const [id, raw] of Object.entries(decisions)) {
    // Found by its id alone: listing every action at every level of a nested resume would cost
    // the depth squared.
    const action = findAction(continuation, id);
    if (!action) {
      const pending = [...new Set(listActions(continuation).map((each) => each.id))];
      const listed = pending
        .slice(0, 10)
        .map((each) => quote(each, 60))
        .join(', ');
      throw new ContinuationError(
        'UNKNOWN_ACTION',
        `No pending action has the id ${quote(id)} (pending: ${listed || 'none'}${pending.length > 10 ? ', …' : ''}).`,
        { path: jsonPath([id]), details: { id: id.length > 200 ? `${id.slice(0, 200)}…` : id, pending } },
      );
    }
    const issue = decisionIssue(raw);
    if (issue) {
      const where = jsonPath([id, ...issue.path]);
      throw new ContinuationError(
        'INVALID_DECISION',
        `Decision for ${quote(id)} is invalid at ${where}: ${clip(issue.message)}.`,
        { path: where, details: [{ code: issue.code, path: where }] },
      );
    }
    // The checked input, not the schema's output: that would drop `__proto__` keys of the arguments.
    const decision = raw as Decision;
    // An approval in doubt also takes an answer: the result the call had, when it ran.
    const fits =
      action.kind === 'approval'
        ? decision.type !== 'input' || action.inDoubt === true
        : decision.type !== 'approve';
    if (!fits) {
      throw new ContinuationError(
        'WRONG_DECISION_KIND',
        `Action ${quote(id)} is ${action.kind === 'approval' ? 'an approval: decide approve or reject' : 'an input request: answer with input, or reject'}, not "${decision.type}".`,
        { path: jsonPath([id, 'type']) },
      );
    }
    checkAllowed({ id, allowedDecisions: action.allowedDecisions }, decision);
    const { head, rest } = splitActionId(id);
    if (rest !== undefined) {
      let group = nested.get(head);
      if (!group) {
        group = Object.create(null) as Record<string, Decision>;
        nested.set(head, group);
      }
      group[rest] = decision;
      continue;
    }
    const tool = tools.get(action.toolName);
    if (!tool) continue;
    if (decision.type === 'approve' && decision.args !== undefined) {
      const checked = await validateArgs(tool, decision.args);
      if (!checked.ok) {
        throw new ContinuationError(
          'INVALID_ARGS',
          `Edited arguments for ${quote(tool.name)} (action ${quote(id)}) are invalid: ${clip(checked.message)}`,
          { path: jsonPath([id, 'args']) },
        );
      }
    }
    if (decision.type === 'input' && !tool.execute && tool.validateResponse) {
      const checked = await tool.validateResponse(decision.value);
      if (!checked.ok) {
        throw new ContinuationError(
          'INVALID_INPUT',
          `The answer for ${quote(tool.name)} (action ${quote(id)}) is invalid: ${clip(checked.message)}`,
          { path: jsonPath([id, 'value']) },
        );
      }
    }
  }
  for (const [head, group] of nested) {
    const entry = continuation.pending.find((pending) => pending.toolCallId === head);
    if (entry?.kind !== 'agent') continue;
    const agent = tools.get(entry.toolName)?.agent;
    await agent?.checkDecisions?.(entry.child, group, options);
  }
}

/**
 * Decisions are untrusted input: a plain object keyed by action id, JSON throughout, no deeper
 * than a continuation may be (every key, `__proto__` included, is data). `checkDecisions` starts
 * with it; a resume path that reads the decisions before that calls it first.
 */
export function checkDecisionsShape(decisions: unknown): asserts decisions is Decisions {
  const prototype =
    typeof decisions === 'object' && decisions !== null ? Object.getPrototypeOf(decisions) : undefined;
  if (Array.isArray(decisions) || (prototype !== Object.prototype && prototype !== null)) {
    throw new ContinuationError(
      'INVALID_DECISION',
      `Decisions must be an object keyed by action id, not ${Array.isArray(decisions) ? 'an array' : decisions === null ? 'null' : typeof decisions === 'object' ? 'a non-plain object' : `a ${typeof decisions}`}.`,
      { path: '$' },
    );
  }
  checkJson(decisions, { code: 'INVALID_DECISION', what: 'Decisions' });
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * The audit entries for decisions applied to a continuation, one per decision, as every adapter
 * appends them to the trail (the decisions must have passed `checkDecisions`).
 *
 * @example
 * ```ts
 * const trail = [...continuation.decisions, ...auditEntries(continuation, decisions)];
 * ```
 */
export function auditEntries(continuation: Continuation, decisions: Decisions): AuditEntry[] {
  const at = new Date().toISOString();
  return Object.entries(decisions).map(([actionId, decision]) => {
    const action = findAction(continuation, actionId)!;
    const entry: AuditEntry = {
      actionId,
      type: decision.type,
      toolName: action.toolName,
      toolCallId: action.toolCallId,
      at,
      args: action.args,
    };
    if (decision.by) entry.by = decision.by;
    if (decision.type !== 'input' && decision.reason) entry.reason = decision.reason;
    if (decision.type === 'approve' && decision.args !== undefined) entry.editedArgs = decision.args;
    if (decision.type === 'input') entry.value = decision.value;
    return entry;
  });
}

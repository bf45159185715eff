/**
 * Checking decisions before anything runs: every id must name a pending action, every decision
 * must fit its action, edited arguments and answers must pass the tools' schemas.
 */
import { z } from 'zod';
import { listActions, splitActionId } from './actions';
import { ContinuationError } from './errors';
import type { AuditEntry, Continuation } from './format';
import { jsonValueSchema } from './json';
import type { Decision, Decisions } from './protocol';
import type { ToolDefinition } from './tools';
import { validateArgs } from './turn';

const decisionSchema: z.ZodType<Decision> = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('approve'),
      args: jsonValueSchema.optional(),
      by: z.string().optional(),
      reason: z.string().optional(),
    })
    .strict(),
  z.object({ type: z.literal('reject'), reason: z.string().optional(), by: z.string().optional() }).strict(),
  z.object({ type: z.literal('input'), value: jsonValueSchema, by: z.string().optional() }).strict(),
]);

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
  if (typeof decisions !== 'object' || decisions === null || Array.isArray(decisions)) {
    throw new ContinuationError('INVALID_DECISION', 'Decisions must be an object keyed by action id.');
  }
  const actions = new Map(listActions(continuation).map((action) => [action.id, action]));
  const nested = new Map<string, Decisions>();
  for (const [id, raw] of Object.entries(decisions)) {
    const action = actions.get(id);
    if (!action) {
      const pending = [...actions.keys()].join(', ') || 'none';
      throw new ContinuationError(
        'UNKNOWN_ACTION',
        `No pending action has the id "${id}" (pending: ${pending}).`,
        {
          details: { id, pending: [...actions.keys()] },
        },
      );
    }
    const parsed = decisionSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ContinuationError(
        'INVALID_DECISION',
        `Decision for "${id}" is invalid: ${z.prettifyError(parsed.error)}`,
        {
          details: parsed.error.issues,
        },
      );
    }
    const decision = parsed.data;
    const fits = action.kind === 'approval' ? decision.type !== 'input' : decision.type !== 'approve';
    if (!fits) {
      throw new ContinuationError(
        'WRONG_DECISION_KIND',
        `Action "${id}" is ${action.kind === 'approval' ? 'an approval: decide approve or reject' : 'an input request: answer with input, or reject'}, not "${decision.type}".`,
      );
    }
    const { head, rest } = splitActionId(id);
    if (rest !== undefined) {
      const group = nested.get(head) ?? {};
      group[rest] = decision;
      nested.set(head, group);
      continue;
    }
    const tool = tools.get(action.toolName);
    if (!tool) continue;
    if (decision.type === 'approve' && decision.args !== undefined) {
      const checked = await validateArgs(tool, decision.args);
      if (!checked.ok) {
        throw new ContinuationError(
          'INVALID_ARGS',
          `Edited arguments for "${tool.name}" (action "${id}") are invalid: ${checked.message}`,
        );
      }
    }
    if (decision.type === 'input' && !tool.execute && tool.validateResponse) {
      const checked = await tool.validateResponse(decision.value);
      if (!checked.ok) {
        throw new ContinuationError(
          'INVALID_INPUT',
          `The answer for "${tool.name}" (action "${id}") is invalid: ${checked.message}`,
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
 * The audit entries for decisions applied to a continuation, one per decision, as every adapter
 * appends them to the trail (the decisions must have passed `checkDecisions`).
 *
 * @example
 * ```ts
 * const trail = [...continuation.decisions, ...auditEntries(continuation, decisions)];
 * ```
 */
export function auditEntries(continuation: Continuation, decisions: Decisions): AuditEntry[] {
  const actions = new Map(listActions(continuation).map((action) => [action.id, action]));
  const at = new Date().toISOString();
  return Object.entries(decisions).map(([actionId, decision]) => {
    const action = actions.get(actionId)!;
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

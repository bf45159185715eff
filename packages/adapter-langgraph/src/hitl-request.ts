/**
 * Approvals as the request of langchain's human-in-the-loop middleware (`HITLRequest`), the shape a
 * `useStream` page written for `createAgent` reads, and its `{ decisions }` answer back as the
 * core's decisions, one per approval in the order the request lists them.
 */
import { type Action, ContinuationError, type Decision, type JsonValue } from '@agent-continuations/core';

/** The middleware's request, as `interrupt.value.actionRequests` / `reviewConfigs` show it. */
export interface HitlRequest {
  actionRequests: Array<{ name: string; args: JsonValue; description?: string }>;
  reviewConfigs: Array<{ actionName: string; allowedDecisions: Array<'approve' | 'edit' | 'reject'> }>;
}

/**
 * `approvals` as one middleware request: each call's name, arguments and description, and what its
 * policy allows (every decision of an approval when it states none).
 *
 * @example
 * ```ts
 * const request = toHitlRequest(actions.filter((action) => action.kind === 'approval'));
 * // { actionRequests: [{ name: 'refund', args: { amount: 120 } }], reviewConfigs: [{ actionName: 'refund', allowedDecisions: [...] }] }
 * ```
 */
export function toHitlRequest(approvals: readonly Action[]): HitlRequest {
  return {
    actionRequests: approvals.map((action) => ({
      name: action.toolName,
      args: action.args,
      ...(action.description === undefined ? {} : { description: action.description }),
    })),
    reviewConfigs: approvals.map((action) => ({
      actionName: action.toolName,
      allowedDecisions: (action.allowedDecisions ?? ['approve', 'edit', 'reject']).filter(
        (kind): kind is 'approve' | 'edit' | 'reject' => kind !== 'input',
      ),
    })),
  };
}

/** True for the middleware's answer: `{ decisions: [...] }`. */
export function isHitlResponse(value: unknown): value is { decisions: unknown[] } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { decisions?: unknown }).decisions)
  );
}

/**
 * The core's decision for each approval from the middleware's `{ decisions }`, in order: `approve`,
 * `edit` (with `editedAction.args`), `reject` (with `message` as the reason). One decision per
 * approval, else `INVALID_DECISION`; the core checks each against the approval's policy on resume.
 *
 * @example
 * ```ts
 * const decided = decisionsFromHitlResponse(approvals, { decisions: [{ type: 'approve' }] });
 * ```
 */
export function decisionsFromHitlResponse(
  approvals: readonly Action[],
  response: { decisions: unknown[] },
  options: { by?: string } = {},
): Array<[Action, Decision]> {
  if (response.decisions.length !== approvals.length) {
    throw new ContinuationError(
      'INVALID_DECISION',
      `The request lists ${approvals.length} call(s); the answer has ${response.decisions.length} decision(s).`,
    );
  }
  const by = options.by === undefined ? {} : { by: options.by };
  return approvals.map((action, index): [Action, Decision] => {
    const given = response.decisions[index] as {
      type?: unknown;
      message?: unknown;
      editedAction?: { name?: unknown; args?: unknown };
      edited_action?: { name?: unknown; args?: unknown };
    } | null;
    if (given?.type === 'approve') return [action, { type: 'approve', ...by }];
    if (given?.type === 'reject') {
      const reason =
        typeof given.message === 'string' && given.message.length > 0 ? { reason: given.message } : {};
      return [action, { type: 'reject', ...reason, ...by }];
    }
    const edited = given?.editedAction ?? given?.edited_action;
    if (given?.type === 'edit' && typeof edited?.args === 'object' && edited.args !== null) {
      if (edited.name !== undefined && edited.name !== action.toolName) {
        throw new ContinuationError(
          'INVALID_DECISION',
          `Decision ${index} edits "${String(edited.name)}", but the call is "${action.toolName}".`,
        );
      }
      return [action, { type: 'approve', args: edited.args as JsonValue, ...by }];
    }
    throw new ContinuationError(
      'INVALID_DECISION',
      `Decision ${index} must be { type: "approve" }, { type: "edit", editedAction: { name, args } } or { type: "reject", message? }.`,
    );
  });
}

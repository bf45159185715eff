/**
 * Actions as LangGraph's Agent Inbox shapes: an action renders as a `HumanInterrupt` whose
 * `config` says what its policy allows, and a `HumanResponse` comes back as the core's decision,
 * keyed by the action's id. The core's `checkAllowed` refuses what the policy does not allow.
 */
import {
  type Action,
  type AllowedDecision,
  ContinuationError,
  checkAllowed,
  type Decision,
  type JsonValue,
} from '@agent-continuations/core';
import type { HumanInterrupt, HumanInterruptConfig, HumanResponse } from '@langchain/langgraph/prebuilt';

const RESPONSE_TYPES: ReadonlySet<string> = new Set(['accept', 'edit', 'response', 'ignore']);

/**
 * An action as LangGraph's `HumanInterrupt`, as Agent Inbox shows it: the tool and its arguments
 * as `action_request`, the action's `description` (an input action's request when it has none),
 * and its `allowedDecisions` as `config`: `allow_accept` for approve, `allow_edit` for edit,
 * `allow_respond` for an input's answer or an approval's rejection with a reason, `allow_ignore`
 * for reject.
 *
 * @example
 * ```ts
 * const view = await runtime.get(continuationId);
 * const requests = view!.actions.map(toHumanInterrupt);
 * // [{ action_request: { action: 'refund', args: { amount: 120 } }, config: { allow_accept: true, ... } }]
 * ```
 */
export function toHumanInterrupt(action: Action): HumanInterrupt {
  const description =
    action.description ??
    (action.kind === 'input' && action.request !== undefined ? textOf(action.request) : undefined);
  return {
    action_request: { action: action.toolName, args: argsObject(action.args) },
    config: configOf(action.kind, allowedOf(action)),
    ...(description === undefined ? {} : { description }),
  };
}

/**
 * The decision a `HumanResponse` makes for `action`: `accept` approves, `edit` approves with the
 * edited `args.args`, `response` answers an input action (its `args` is the value) or rejects an
 * approval with `args` as the reason, `ignore` rejects. A response the action's policy does not
 * allow is refused with `DECISION_NOT_ALLOWED`, a malformed one with `INVALID_DECISION`.
 *
 * @example
 * ```ts
 * const decision = decisionFromHumanResponse(action, { type: 'edit', args: { action: 'refund', args: { amount: 80 } } });
 * await runtime.resume(continuationId, { [action.id]: decision });
 * ```
 */
export function decisionFromHumanResponse(
  action: Action,
  response: HumanResponse,
  options: { by?: string } = {},
): Decision {
  const by = options.by === undefined ? {} : { by: options.by };
  const decision = ((): Decision => {
    const type = responseType(action, response);
    const args = (response as { args?: unknown }).args;
    if (type === 'ignore') return { type: 'reject', ...by };
    if (type === 'accept') return { type: 'approve', ...by };
    if (type === 'edit') return { type: 'approve', args: editedArgs(action, args), ...by };
    if (action.kind === 'input') return { type: 'input', value: jsonOf(action, args), ...by };
    if (typeof args !== 'string')
      throw invalid(action, 'a response to an approval carries its reason as a string');
    return { type: 'reject', ...(args.length > 0 ? { reason: args } : {}), ...by };
  })();
  checkAllowed({ id: action.id, allowedDecisions: allowedOf(action) }, decision);
  return decision;
}

/**
 * True for a value shaped like a `HumanResponse` (a `type` Agent Inbox sends).
 *
 * @example
 * ```ts
 * const responses = Array.isArray(resume) ? resume.filter(isHumanResponse) : [];
 * ```
 */
export function isHumanResponse(value: unknown): value is HumanResponse {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    RESPONSE_TYPES.has((value as { type?: unknown }).type as string)
  );
}

/**
 * What a `HumanInterrupt`'s `config` allows, as an action's kind and `allowedDecisions`: one that
 * can be accepted or edited is an approval (`allow_respond` or `allow_ignore` then allow a
 * reject), one that can only be answered is an input (`allow_respond` answers, a reject too).
 */
export function allowedOfConfig(config: Partial<HumanInterruptConfig>): {
  kind: Action['kind'];
  allowed: AllowedDecision[];
} {
  const approves = config.allow_accept === true || config.allow_edit === true;
  const allowed: AllowedDecision[] = [
    ...(config.allow_accept ? (['approve'] as const) : []),
    ...(config.allow_edit ? (['edit'] as const) : []),
    ...(config.allow_respond || config.allow_ignore ? (['reject'] as const) : []),
    ...(config.allow_respond && !approves ? (['input'] as const) : []),
  ];
  return { kind: approves ? 'approval' : 'input', allowed };
}

/** The action's own policy, or every decision that fits its kind. */
function allowedOf(action: Action): readonly AllowedDecision[] {
  return (
    action.allowedDecisions ??
    (action.kind === 'approval' ? ['approve', 'edit', 'reject'] : ['input', 'reject'])
  );
}

/** The inverse of {@link allowedOfConfig} for the kind: what Agent Inbox offers for the policy. */
function configOf(kind: Action['kind'], allowed: readonly AllowedDecision[]): HumanInterruptConfig {
  const rejects = allowed.includes('reject');
  return {
    allow_accept: kind === 'approval' && allowed.includes('approve'),
    allow_edit: kind === 'approval' && allowed.includes('edit'),
    allow_respond: kind === 'approval' ? rejects : allowed.includes('input'),
    allow_ignore: rejects,
  };
}

function responseType(action: Action, response: unknown): HumanResponse['type'] {
  if (!isHumanResponse(response)) {
    throw invalid(action, 'a HumanResponse is { type: "accept" | "edit" | "response" | "ignore", args }');
  }
  return response.type;
}

function editedArgs(action: Action, args: unknown): JsonValue {
  const request = args as { action?: unknown; args?: unknown } | null;
  if (
    typeof request !== 'object' ||
    request === null ||
    typeof request.args !== 'object' ||
    request.args === null
  ) {
    throw invalid(action, 'an edit carries { action, args } with the edited arguments');
  }
  if (request.action !== undefined && request.action !== action.toolName) {
    throw invalid(
      action,
      `an edit names the action's tool "${action.toolName}", not "${String(request.action)}"`,
    );
  }
  return jsonOf(action, request.args);
}

function jsonOf(action: Action, value: unknown): JsonValue {
  if (value === undefined) throw invalid(action, 'a response carries its answer in args');
  try {
    return JSON.parse(JSON.stringify(value)) as JsonValue;
  } catch {
    throw invalid(action, 'the response is not JSON');
  }
}

function invalid(action: Action, why: string): ContinuationError {
  return new ContinuationError(
    'INVALID_DECISION',
    `The response for action "${action.id}" is invalid: ${why}.`,
    {
      path: `$["${action.id}"]`,
    },
  );
}

function argsObject(args: JsonValue): Record<string, JsonValue> {
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? args : { value: args };
}

function textOf(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

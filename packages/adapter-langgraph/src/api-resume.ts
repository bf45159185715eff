/**
 * The `command: { resume }` a LangGraph client sends, as the core's decisions for the actions a
 * thread waits on. Interrupt ids are action ids, so a resume keyed by interrupt id decides by
 * action id; one action waiting takes the value itself, or Agent Inbox's list of one response.
 */
import {
  type Action,
  ContinuationError,
  type Decision,
  type Decisions,
  type JsonValue,
} from '@agent-continuations/core';
import type { HumanResponse } from '@langchain/langgraph/prebuilt';
import { decisionsFromHitlResponse, isHitlResponse } from './hitl-request';
import { decisionFromHumanResponse, isHumanResponse } from './human-interrupt';

const DECISION_TYPES: ReadonlySet<string> = new Set(['approve', 'reject', 'input']);

/**
 * Decisions from a resume value: an object keyed by interrupt (action) id, each value a
 * `HumanResponse`, a list of one, a core decision, or an input action's answer; or, when one action
 * waits, any of those alone. A key that names no waiting action is refused with `UNKNOWN_ACTION`,
 * a value that fits no action with `INVALID_DECISION`; the core checks the rest when it resumes.
 */
export function decisionsFromResume(actions: readonly Action[], resume: unknown, by?: string): Decisions {
  const byId = new Map(actions.map((action) => [action.id, action] as const));
  const decisions: Decisions = Object.create(null) as Decisions;
  // The middleware's answer decides the approvals, in the order its request listed them.
  const approvals = actions.filter((action) => action.kind === 'approval');
  const decideApprovals = (answer: { decisions: unknown[] }) => {
    const options = by === undefined ? {} : { by };
    for (const [action, decision] of decisionsFromHitlResponse(approvals, answer, options)) {
      decisions[action.id] = decision;
    }
  };
  if (isHitlResponse(resume)) {
    decideApprovals(resume);
    return decisions;
  }
  if (keyed(actions, byId, resume)) {
    for (const [id, value] of Object.entries(resume)) {
      const action = byId.get(id);
      if (!action) {
        throw new ContinuationError(
          'UNKNOWN_ACTION',
          `No interrupt of this thread has the id "${id}" (waiting: ${[...byId.keys()].join(', ') || 'none'}).`,
          { details: { id, pending: [...byId.keys()] } },
        );
      }
      // Keyed by the id the middleware's request is listed under: it answers every approval.
      if (isHitlResponse(value) && id === approvals[0]?.id) decideApprovals(value);
      else decisions[id] = decisionOf(action, value, by);
    }
    return decisions;
  }
  // A run paused with nothing to decide (a predicate, a breakpoint) goes on with no decisions.
  if (actions.length === 0) return decisions;
  if (actions.length !== 1) {
    throw new ContinuationError(
      'INVALID_DECISION',
      `${actions.length} interrupts wait on this thread: key the resume by interrupt id (${[...byId.keys()].join(', ')}).`,
      { details: { pending: [...byId.keys()] } },
    );
  }
  const only = actions[0]!;
  decisions[only.id] = decisionOf(only, resume, by);
  return decisions;
}

/** Is `resume` keyed by interrupt id, rather than one action's answer? */
function keyed(
  actions: readonly Action[],
  byId: ReadonlyMap<string, Action>,
  resume: unknown,
): resume is Record<string, unknown> {
  if (typeof resume !== 'object' || resume === null || Array.isArray(resume)) return false;
  const keys = Object.keys(resume);
  if (keys.length === 0) return false;
  if (keys.every((key) => byId.has(key))) return true;
  if (isHumanResponse(resume) || isDecision(resume)) return false;
  // An object is the answer itself when the one action waiting is a question.
  return !(actions.length === 1 && actions[0]!.kind === 'input');
}

function decisionOf(action: Action, value: unknown, by: string | undefined): Decision {
  const options = by === undefined ? {} : { by };
  const one = Array.isArray(value) && value.length === 1 && isHumanResponse(value[0]) ? value[0] : value;
  if (isHumanResponse(one)) return decisionFromHumanResponse(action, one as HumanResponse, options);
  if (isDecision(one)) return { ...(by === undefined ? {} : { by }), ...(one as Decision) };
  if (action.kind === 'input' && one !== undefined)
    return { type: 'input', value: one as JsonValue, ...options };
  throw new ContinuationError(
    'INVALID_DECISION',
    `Interrupt "${action.id}" (${action.toolName}) is an approval: resume it with a HumanResponse ({ type: "accept" | "edit" | "response" | "ignore", args }) or a decision ({ type: "approve" | "reject" }).`,
    { path: `$["${action.id}"]` },
  );
}

function isDecision(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    DECISION_TYPES.has((value as { type?: unknown }).type as string)
  );
}

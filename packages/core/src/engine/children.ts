/**
 * The decisions of one resume, sorted by the tool call they reach: a call's own decision, and the
 * decisions for its sub-agent's actions, which are handed out once. The engine and adapters that
 * resume sub-agents themselves (LangGraph re-runs an interrupted task each time any interrupt is
 * answered) share it, so a child decision is applied exactly once whoever drives the parent.
 */
import { splitActionId } from './actions';
import type { Decision, Decisions } from './protocol';

/** The decisions of a resume by tool call (see {@link decisionsByCall}). */
export interface DecisionsByCall {
  /** The tool calls any decision reaches, in the order the decisions were given. */
  readonly calls: readonly string[];
  /** The decision for the call itself, with its action id. */
  own(toolCallId: string): { actionId: string; value: Decision } | undefined;
  /**
   * The decisions for the sub-agent of the call, relative to it; returned by the first call only,
   * `undefined` after (the child has them: handing them out again would apply them twice).
   */
  takeChild(toolCallId: string): Decisions | undefined;
}

/**
 * Sort `decisions` (already checked) by the tool call of this level they reach.
 *
 * @example
 * ```ts
 * const byCall = decisionsByCall({ call_1: { type: 'approve' }, 'call_2/call_9': { type: 'reject' } });
 * byCall.own('call_1');        // { actionId: 'call_1', value: { type: 'approve' } }
 * byCall.takeChild('call_2');  // { call_9: { type: 'reject' } }
 * byCall.takeChild('call_2');  // undefined
 * ```
 */
export function decisionsByCall(decisions: Decisions): DecisionsByCall {
  const own = new Map<string, { actionId: string; value: Decision }>();
  // Null-prototype groups: an action id segment such as `__proto__` stays a plain key.
  const children = new Map<string, Decisions>();
  const calls: string[] = [];
  for (const [id, decision] of Object.entries(decisions)) {
    const { head, rest } = splitActionId(id);
    if (!own.has(head) && !children.has(head)) calls.push(head);
    if (rest === undefined) {
      own.set(head, { actionId: id, value: decision });
      continue;
    }
    let group = children.get(head);
    if (!group) {
      group = Object.create(null) as Decisions;
      children.set(head, group);
    }
    group[rest] = decision;
  }
  return {
    calls,
    own: (toolCallId) => own.get(toolCallId),
    takeChild(toolCallId) {
      const group = children.get(toolCallId);
      children.delete(toolCallId);
      return group;
    },
  };
}

/**
 * The flat view of a continuation's pending tree: one action per leaf, with a stable id made from
 * the tool-call ids on the path from the root.
 */
import type { Continuation, PendingEntry } from '../format/format';
import type { Action, ActionPathSegment } from './protocol';

const SEPARATOR = '/';

/**
 * Join tool-call ids into an action id; a `/` or `%` inside an id is percent-encoded.
 *
 * @example
 * ```ts
 * actionId(['call_1', 'call_7']); // 'call_1/call_7'
 * ```
 */
export function actionId(toolCallIds: readonly string[]): string {
  return toolCallIds.map(encodeSegment).join(SEPARATOR);
}

/**
 * Split an action id into its first tool-call id and the id relative to that call's child.
 *
 * @example
 * ```ts
 * splitActionId('call_1/call_7'); // { head: 'call_1', rest: 'call_7' }
 * ```
 */
export function splitActionId(id: string): { head: string; rest: string | undefined } {
  const index = id.indexOf(SEPARATOR);
  if (index < 0) return { head: decodeSegment(id), rest: undefined };
  return { head: decodeSegment(id.slice(0, index)), rest: id.slice(index + 1) };
}

/**
 * Every action a human can act on in `continuation`, depth first, in pending order.
 *
 * @example
 * ```ts
 * for (const action of listActions(continuation)) {
 *   console.log(action.id, action.kind, action.toolName, action.args);
 * }
 * ```
 */
export function listActions(continuation: Continuation): Action[] {
  const actions: Action[] = [];
  collect(continuation, [], [], actions);
  return actions;
}

/**
 * The pending entry `id` names, as {@link listActions} would list it, found by walking the id's
 * segments down the tree: no other action is built, so the cost follows the id's length, not the
 * tree's size. `undefined` when no pending action has that id.
 */
export function findAction(
  continuation: Continuation,
  id: string,
): Exclude<PendingEntry, { kind: 'agent' }> | undefined {
  return find(continuation, id, 0);
}

/** {@link findAction} for the part of `id` from `start`, one segment a level. */
function find(
  continuation: Continuation,
  id: string,
  start: number,
): Exclude<PendingEntry, { kind: 'agent' }> | undefined {
  const end = id.indexOf(SEPARATOR, start);
  const last = end < 0;
  const length = (last ? id.length : end) - start;
  // From the end: when two entries share an id, the later one wins, as in a map of listActions.
  for (let index = continuation.pending.length - 1; index >= 0; index--) {
    const entry = continuation.pending[index]!;
    const segment = encodeSegment(entry.toolCallId);
    if (segment.length !== length || !id.startsWith(segment, start)) continue;
    if (entry.kind === 'agent') {
      const found = last ? undefined : find(entry.child, id, end + 1);
      if (found) return found;
    } else if (last && !(entry.kind === 'approval' && entry.approved)) return entry;
  }
  return undefined;
}

function collect(continuation: Continuation, ids: string[], path: ActionPathSegment[], out: Action[]): void {
  for (const entry of continuation.pending) {
    const segment: ActionPathSegment = {
      agent: continuation.agent.name,
      toolName: entry.toolName,
      toolCallId: entry.toolCallId,
    };
    ids.push(entry.toolCallId);
    path.push(segment);
    if (entry.kind === 'agent') collect(entry.child, ids, path, out);
    // An approved call not yet run (seen only in checkpoints) waits for no one.
    else if (!(entry.kind === 'approval' && entry.approved)) out.push(toAction(entry, ids, path));
    ids.pop();
    path.pop();
  }
}

function toAction(
  entry: Exclude<PendingEntry, { kind: 'agent' }>,
  ids: string[],
  path: ActionPathSegment[],
): Action {
  const last = path[path.length - 1]!;
  const action: Action = {
    id: actionId(ids),
    kind: entry.kind,
    path: path.map((segment) => ({ ...segment })),
    agent: last.agent,
    toolName: entry.toolName,
    toolCallId: entry.toolCallId,
    args: entry.args,
  };
  if (entry.kind === 'input') action.request = entry.request;
  if (entry.deadline !== undefined) action.deadline = entry.deadline;
  if (entry.description !== undefined) action.description = entry.description;
  if (entry.allowedDecisions !== undefined) action.allowedDecisions = [...entry.allowedDecisions];
  if (entry.kind === 'approval' && entry.inDoubt) action.inDoubt = true;
  return action;
}

function encodeSegment(segment: string): string {
  if (!segment.includes('%') && !segment.includes('/')) return segment;
  return segment.replace(/%/g, '%25').replace(/\//g, '%2F');
}

function decodeSegment(segment: string): string {
  return segment.replace(/%2F/gi, '/').replace(/%25/g, '%');
}

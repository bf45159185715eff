/**
 * A continuation's parts must agree with each other, at every depth: what is pending or done is a
 * call the transcript's last assistant message made, each call is pending or done at most once,
 * never both; an approval is never both approved and in doubt. A continuation that contradicts
 * itself was forged or damaged; it is refused on parse (`INVALID_CONTINUATION`, with the rule in
 * `details.rule`) before anything runs.
 */
import { ContinuationError } from '../errors';
import type { Continuation } from './format';
import { jsonPath, quote } from './json';
import { toolCallsOf } from './messages';

/**
 * Frameworks whose adapters map their own pause points (a LangGraph `interrupt()` inside a node, a
 * subgraph that waits) to pending entries that need not be tool calls of the transcript; their
 * adapter checks those entries against its native `state` when it resumes. Only the rules that hold
 * for any pending tree (no call twice, never both done and pending) apply to their levels.
 */
const OWN_PENDING_POINTS: ReadonlySet<string> = new Set(['langgraph']);

/** The rules, as named in `details.rule` of the error. */
export type ConsistencyRule =
  | 'no-turn'
  | 'not-a-call-of-the-turn'
  | 'duplicate-pending'
  | 'duplicate-done'
  | 'done-and-pending'
  | 'duplicate-call-id'
  | 'approved-in-doubt';

/**
 * Throw `INVALID_CONTINUATION` when the parts of `continuation` (already schema-valid) contradict
 * each other, at its level or in any nested child.
 *
 * @example
 * ```ts
 * checkConsistency(continuation); // after schema validation, as parseContinuation does
 * ```
 */
export function checkConsistency(continuation: Continuation): void {
  const queue: Array<{ continuation: Continuation; path: Array<string | number> }> = [
    { continuation, path: [] },
  ];
  while (queue.length > 0) {
    const { continuation: current, path } = queue.pop()!;
    checkLevel(current, path);
    current.pending.forEach((entry, i) => {
      if (entry.kind === 'agent')
        queue.push({ continuation: entry.child, path: [...path, 'pending', i, 'child'] });
    });
  }
}

function checkLevel(continuation: Continuation, path: Array<string | number>): void {
  const { pending, done, messages } = continuation;
  pending.forEach((entry, i) => {
    // Approved means "run it"; in doubt means "a person must say": the engine never writes both.
    if (entry.kind === 'approval' && entry.approved && entry.inDoubt)
      fail(
        'approved-in-doubt',
        [...path, 'pending', i],
        `the call ${quote(entry.toolCallId)} is both approved and in doubt`,
      );
  });
  if (pending.length === 0 && done.length === 0) return;
  if (OWN_PENDING_POINTS.has(continuation.agent.framework)) {
    checkDisjoint(continuation, path, undefined);
    return;
  }
  const last = messages[messages.length - 1];
  const calls = toolCallsOf(last);
  if (calls.length === 0) {
    const first = pending.length > 0 ? ['pending', 0] : ['done', 0];
    fail(
      'no-turn',
      [...path, ...first],
      `it is ${pending.length > 0 ? 'pending' : 'done'}, but the transcript ${
        messages.length === 0 ? 'is empty' : 'does not end with an assistant message that calls tools'
      }`,
    );
  }
  const byId = new Set<string>();
  calls.forEach((call, i) => {
    if (byId.has(call.toolCallId)) {
      fail(
        'duplicate-call-id',
        [...path, 'messages', messages.length - 1, 'content'],
        `the last assistant message calls ${quote(call.toolCallId)} twice (call ${i})`,
      );
    }
    byId.add(call.toolCallId);
  });
  checkDisjoint(continuation, path, byId);
}

/**
 * No call is pending or done twice, or both; with `calls`, each is a call of the turn. (A tool
 * name that differs from the call's is left to the resume, which refuses a tool the agent lacks
 * with `UNKNOWN_TOOL`.)
 */
function checkDisjoint(
  continuation: Continuation,
  path: Array<string | number>,
  calls: ReadonlySet<string> | undefined,
): void {
  const { pending, done } = continuation;
  const seen = new Map<string, string>();
  for (const [list, name] of [
    [pending, 'pending'],
    [done, 'done'],
  ] as const) {
    list.forEach((entry, i) => {
      const at = [...path, name, i];
      const id = entry.toolCallId;
      const earlier = seen.get(id);
      if (earlier !== undefined) {
        fail(
          earlier === name
            ? name === 'pending'
              ? 'duplicate-pending'
              : 'duplicate-done'
            : 'done-and-pending',
          at,
          earlier === name
            ? `the call ${quote(id)} is ${name} twice`
            : `the call ${quote(id)} is both pending and done`,
        );
      }
      seen.set(id, name);
      if (!calls) return;
      if (!calls.has(id)) {
        fail('not-a-call-of-the-turn', at, `${quote(id)} is not a tool call of the last assistant message`);
      }
    });
  }
}

function fail(rule: ConsistencyRule, at: Array<string | number>, what: string): never {
  const where = jsonPath(at);
  throw new ContinuationError('INVALID_CONTINUATION', `Inconsistent continuation at ${where}: ${what}.`, {
    path: where,
    details: { rule },
  });
}

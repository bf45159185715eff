/**
 * Deadlines on actions: when a run suspends, each approval or input request that has none yet gets
 * one from its tool's `deadline` or the run's `deadlines` policy. A deadline, once set, stays with
 * the action across resumes (the pending entry carries it), so deciding another action of the run
 * never moves it.
 */
import { ContinuationError } from '../errors';
import type { Continuation, PendingEntry } from '../format/format';
import type { JsonValue } from '../format/json';

/** A deadline: milliseconds after the suspension, or a point in time. */
export type Deadline = number | Date;

/** What a deadline policy sees of the action it sets a deadline on. */
export interface DeadlineContext {
  /** The agent whose tool waits. */
  agent: string;
  toolName: string;
  toolCallId: string;
  kind: 'approval' | 'input';
  args: JsonValue;
}

/** A run's deadline policy; `undefined` leaves the action without a deadline. */
export type DeadlinePolicy = (action: DeadlineContext) => Deadline | undefined;

/** A tool's own deadline: fixed, or from its arguments. */
export type ToolDeadline = Deadline | ((args: any) => Deadline | undefined);

/**
 * The entries of a suspending run, with a deadline on each approval and input request that had
 * none: the tool's own first, then the run's policy. Other entries are returned as they are.
 */
export function withDeadlines(
  entries: Iterable<PendingEntry>,
  agent: string,
  toolDeadline: (toolName: string) => ToolDeadline | undefined,
  policy: DeadlinePolicy | undefined,
  now: number,
): Map<string, PendingEntry> | undefined {
  let changed: Map<string, PendingEntry> | undefined;
  for (const entry of entries) {
    // A call in doubt waits for a person who knows what happened: no default decision applies.
    if (entry.kind === 'agent' || entry.approved || entry.deadline !== undefined) continue;
    if (entry.kind === 'approval' && entry.inDoubt) continue;
    const own = toolDeadline(entry.toolName);
    const deadline =
      (typeof own === 'function' ? own(entry.args) : own) ??
      policy?.({
        agent,
        toolName: entry.toolName,
        toolCallId: entry.toolCallId,
        kind: entry.kind,
        args: entry.args,
      });
    if (deadline === undefined) continue;
    changed ??= new Map();
    changed.set(entry.toolCallId, { ...entry, deadline: deadlineAt(deadline, now) });
  }
  return changed;
}

function deadlineAt(deadline: Deadline, now: number): string {
  const at = typeof deadline === 'number' ? new Date(now + deadline) : deadline;
  if (Number.isNaN(at.getTime())) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `A deadline must be milliseconds or a valid Date, not ${String(deadline)}.`,
    );
  }
  return at.toISOString();
}

/**
 * For adapters that build continuations themselves: `continuation` with the run's deadline policy
 * applied to this level's approvals and input requests that have no deadline yet (sub-agents
 * apply it to their own). The same object when nothing changes.
 *
 * @example
 * ```ts
 * const dated = applyDeadlines(made, runOptions.deadlines);
 * ```
 */
export function applyDeadlines(
  continuation: Continuation,
  policy: DeadlinePolicy | undefined,
  now: number = Date.now(),
): Continuation {
  if (!policy) return continuation;
  const dated = withDeadlines(continuation.pending, continuation.agent.name, () => undefined, policy, now);
  if (!dated) return continuation;
  return {
    ...continuation,
    pending: continuation.pending.map((entry) => dated.get(entry.toolCallId) ?? entry),
  };
}

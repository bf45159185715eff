/**
 * The deadline sweeper: one function that finds actions past their deadline in a store's suspended
 * runs and applies the configured default: reject them (the model is told the reason, and the
 * audit trail records the decision as made `by: 'deadline'`), or escalate them by notifying again.
 * Each rejection goes through `resumeStored`, so it is claimed like any human decision: a person
 * deciding at the same moment wins or loses cleanly, and nothing runs twice.
 */

import { type ResumeStoredOptions, resumeStored } from '../durable/resume-stored';
import { listActions } from '../engine/actions';
import type { Action, ContinuableAgent, Decisions } from '../engine/protocol';
import { ContinuationError, isContinuationError } from '../errors';
import type { Continuation } from '../format/format';
import type { ContinuationStore } from '../stores/store';
import { type NotifyOptions, suspendNotice } from './notify';

/** What to do with an action past its deadline. */
export type DeadlineAction = 'reject' | 'escalate';

/** Options of {@link sweepDeadlines}. */
export interface SweepOptions extends NotifyOptions {
  store: ContinuationStore;
  /** The agents that resume rejected runs, by name (the continuation's `agent.name`). */
  agents: Readonly<Record<string, ContinuableAgent<any, unknown>>>;
  /** `reject` (by default), `escalate`, or a choice per action. */
  onDeadline?: DeadlineAction | ((action: Action, continuation: Continuation) => DeadlineAction);
  /** The rejection reason the model reads; "No decision was made before the deadline." by default. */
  reason?: string;
  /**
   * The time to sweep at. By default the store's clock (`store.now()`, the database's, where the
   * store has one), else this process's: the one clock to inject for stores without a server.
   */
  now?: Date;
  /**
   * Actions already escalated, as `continuationId action-id` keys: an action is escalated once per
   * set. Keep one set across sweeps (the worker does) so a long-overdue action is not re-notified
   * on every sweep.
   */
  escalated?: Set<string>;
  /** Passed to each resume (e.g. `log`, `leaseMs`, `save`); `owner` is `deadline` by default. */
  resume?: Omit<ResumeStoredOptions, 'onSuspend' | 'links'>;
  /** Suspended runs read per page; 100 by default. */
  pageSize?: number;
}

/** What one sweep did. */
export interface SweepReport {
  /** Actions rejected by their deadline, per continuation id. */
  rejected: Array<{ continuationId: string; actionIds: string[] }>;
  /** Actions escalated (notified again). */
  escalated: Array<{ continuationId: string; actionIds: string[] }>;
  /** Runs that someone else claimed first (a person deciding, another sweeper): left to them. */
  skipped: string[];
  /**
   * Runs whose resume or escalation failed, with the error. A failed escalation is not marked
   * escalated, so the next sweep tries it again; the sweep goes on with the other runs either way.
   */
  failed: Array<{ continuationId: string; error: unknown }>;
}

const DEFAULT_REASON = 'No decision was made before the deadline.';

/**
 * Sweep `store` once: every suspended run's actions whose deadline is at or before `now` get the
 * default decision. Run it on a timer, or let the pg-boss worker run it.
 *
 * @example
 * ```ts
 * const escalated = new Set<string>();
 * setInterval(async () => {
 *   const report = await sweepDeadlines({ store, agents: { hr: hrAgent }, escalated, onSuspend: notifier, links });
 *   for (const { continuationId, error } of report.failed) console.error(continuationId, error);
 * }, 60_000);
 * ```
 *
 * @deprecated Use `runtime.sweep()` from `createRuntime`.
 */
export async function sweepDeadlines(options: SweepOptions): Promise<SweepReport> {
  if (options.onDeadline === 'escalate' && !options.onSuspend) throw escalationUnheard();
  const now = (options.now ?? (await options.store.now?.()) ?? new Date()).getTime();
  const report: SweepReport = { rejected: [], escalated: [], skipped: [], failed: [] };
  let cursor: string | undefined;
  do {
    const page = await options.store.list({
      status: 'suspended',
      limit: options.pageSize ?? 100,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const { id } of page.items) await sweepOne(options, id, now, report);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return report;
}

async function sweepOne(options: SweepOptions, id: string, now: number, report: SweepReport): Promise<void> {
  const stored = await options.store.load(id);
  if (stored?.status === 'claimed') report.skipped.push(id);
  if (stored?.status !== 'suspended') return;
  const { continuation } = stored;
  const overdue = listActions(continuation).filter(
    (action) => action.deadline !== undefined && Date.parse(action.deadline) <= now,
  );
  if (overdue.length === 0) return;
  const choose = options.onDeadline ?? 'reject';
  const toReject: Action[] = [];
  const toEscalate: Action[] = [];
  for (const action of overdue) {
    const choice = typeof choose === 'function' ? choose(action, continuation) : choose;
    (choice === 'escalate' ? toEscalate : toReject).push(action);
  }
  try {
    await escalate(options, continuation, toEscalate, report);
  } catch (error) {
    report.failed.push({ continuationId: id, error });
  }
  if (toReject.length === 0) return;
  const agent = options.agents[continuation.agent.name];
  if (!agent) {
    report.failed.push({
      continuationId: id,
      error: new Error(`No agent named "${continuation.agent.name}" was given to the sweeper.`),
    });
    return;
  }
  const decisions: Decisions = {};
  for (const action of toReject) {
    decisions[action.id] = { type: 'reject', reason: options.reason ?? DEFAULT_REASON, by: 'deadline' };
  }
  try {
    await resumeStored(options.store, agent, id, decisions, {
      owner: 'deadline',
      ...options.resume,
      ...(options.onSuspend ? { onSuspend: options.onSuspend } : {}),
      ...(options.links ? { links: options.links } : {}),
    });
    report.rejected.push({ continuationId: id, actionIds: toReject.map((action) => action.id) });
  } catch (error) {
    if (isContinuationError(error, 'CLAIM_CONFLICT')) report.skipped.push(id);
    else report.failed.push({ continuationId: id, error });
  }
}

async function escalate(
  options: SweepOptions,
  continuation: Continuation,
  actions: Action[],
  report: SweepReport,
): Promise<void> {
  const fresh = actions.filter((action) => !options.escalated?.has(`${continuation.id} ${action.id}`));
  if (fresh.length === 0) return;
  if (!options.onSuspend) throw escalationUnheard();
  const notice = await suspendNotice(continuation, {
    reason: 'escalated',
    only: fresh.map((action) => action.id),
    ...(options.links ? { links: options.links } : {}),
  });
  await options.onSuspend(notice);
  for (const action of fresh) options.escalated?.add(`${continuation.id} ${action.id}`);
  report.escalated.push({ continuationId: continuation.id, actionIds: fresh.map((action) => action.id) });
}

function escalationUnheard(): ContinuationError {
  return new ContinuationError(
    'INVALID_OPERATION',
    'Escalating a deadline notifies again: give the sweeper onSuspend (a runtime, its notify).',
  );
}

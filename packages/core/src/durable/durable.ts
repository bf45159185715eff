/**
 * Durable runs: run and resume agents with a checkpoint at every step into a
 * {@link CheckpointLog}, holding the run's lease, so a crashed run is picked up at its last
 * recorded step by another worker (see `recover.ts`).
 */

import type { ContinuableAgent, Decisions, RunOptions, RunResult } from '../engine/protocol';
import { ContinuationError, isContinuationError } from '../errors';
import { parseContinuation } from '../format/codec';
import type { Continuation } from '../format/format';
import { inputMessages, type Message } from '../format/messages';
import type { Claim, ContinuationStore, SaveOptions } from '../stores/store';
import {
  type CheckpointBase,
  type CheckpointEnd,
  type CheckpointLog,
  type CheckpointStart,
  type CheckpointStep,
  checkpointer,
  type LeaseOptions,
  type RunLease,
  replayCheckpoints,
} from './checkpoint';
import { beforeStartChecked, heartbeat } from './lease';

/** Options of {@link runDurably}, {@link resumeDurably}, {@link recoverRun} and {@link recover}. */
export interface DurableOptions extends Omit<RunOptions, 'runId'> {
  /** Who runs it (a worker id); a random one by default. */
  owner?: string;
  /**
   * How long the run's lease holds without a step; renewed every third of it. 30 s by default.
   * When a renewal finds the lease lost (another worker took the run over), the run's `signal`
   * aborts, its next write fails, and the call fails with `LEASE_LOST`.
   */
  leaseMs?: number;
  /**
   * Save the run's suspensions here (`runDurably`, `resumeDurably`), and note them saved in the log;
   * a suspension the log recorded but the store never got (the process died in between) is saved
   * by {@link recover}.
   */
  store?: ContinuationStore;
  /** How to save a suspension in `store`. */
  save?: SaveOptions;
}

/** Any agent: the durable runners only call `run` and `resume`. */
type AnyAgent = ContinuableAgent<any, unknown>;

/**
 * Run an agent with a checkpoint at every step into `log`, holding the run's lease. If the process
 * dies, {@link recover} picks the run up at its last recorded step.
 *
 * @example
 * ```ts
 * const result = await runDurably(agent, log, 'Pay the March invoices', { runId: 'run-42', owner: 'worker-1' });
 * ```
 *
 * @deprecated Use `runtime.start(name, input)` from `createRuntime`, given a `log`.
 */
export async function runDurably(
  agent: AnyAgent,
  log: CheckpointLog,
  input: string | Message[],
  options: DurableOptions & { runId?: string } = {},
): Promise<RunResult<unknown>> {
  const runId = options.runId ?? crypto.randomUUID();
  const messages = inputMessages(input);
  const metadata = options.metadata ?? {};
  const start: CheckpointStart = {
    type: 'start',
    runId,
    agentName: agent.name,
    at: new Date().toISOString(),
    input: messages,
    metadata,
  };
  const lease = await log.begin(start, leaseOptions(options));
  const base = { messages, done: [], pending: [], decisions: [] };
  return driveDurably(log, lease, base, options, (run) => agent.run(messages, { ...run, runId, metadata }));
}

/**
 * Resume a continuation with a checkpoint at every step into `log`. When the continuation is the
 * log's own last suspension, the log refers to it by id instead of storing it again.
 *
 * @example
 * ```ts
 * const result = await resumeDurably(agent, log, continuation, { [actionId]: { type: 'approve' } });
 * ```
 *
 * @deprecated Use `runtime.resume(id, decisions)` from `createRuntime`, given a `log`, on the
 *   continuation saved in the runtime's store.
 */
export async function resumeDurably(
  agent: AnyAgent,
  log: CheckpointLog,
  input: Continuation | string,
  decisions: Decisions = {},
  options: DurableOptions = {},
): Promise<RunResult<unknown>> {
  const continuation = parseContinuation(input);
  const known = await fenceByStep(log, continuation);
  return resumeFenced(agent, log, continuation, decisions, options, known);
}

/**
 * Resume a continuation the log has checked (see {@link fenceByStep}); `claim` is the store's claim
 * it runs under, recorded in the log for recovery. For `resumeStored` with a log.
 */
export async function resumeFenced(
  agent: AnyAgent,
  log: CheckpointLog,
  continuation: Continuation,
  decisions: Decisions,
  options: DurableOptions,
  known: boolean,
  claimed?: ClaimedResume,
): Promise<RunResult<unknown>> {
  const claim = claimed?.claim();
  const start: CheckpointStart = {
    type: 'start',
    runId: continuation.runId,
    agentName: continuation.agent.name,
    at: new Date().toISOString(),
    ...(known ? { fromId: continuation.id } : { from: continuation }),
    decisions,
    ...(claim ? { claim } : {}),
  };
  const lease = await log.begin(start, leaseOptions(options));
  return driveDurably(
    log,
    lease,
    continuation,
    options,
    (run) => agent.resume(continuation, decisions, run),
    claimed,
  );
}

/**
 * The store claim a resume runs under (`resumeStored` with a log): its suspension completes the
 * claim in the log's transaction when the log can (`written` is then set).
 */
export interface ClaimedResume {
  store: ContinuationStore;
  claim: () => Claim;
  /** Stop renewing the claim (throws `LEASE_LOST` when it was lost). */
  stop: () => Promise<void>;
  save?: SaveOptions;
  written?: boolean;
}

/**
 * Fencing by step: refuse (`CLAIM_CONFLICT`, nothing runs) a continuation that the run's log has
 * moved past: the run ended after it, or suspended again at a later point. True when it is the
 * log's own last suspension (resumed by reference); false when the log does not know the run, or
 * the continuation is newer than anything it recorded (it went on without the log).
 */
export async function fenceByStep(log: CheckpointLog, continuation: Continuation): Promise<boolean> {
  const record = await log.status(continuation.runId);
  if (!record || record.status === 'running') return false; // `begin` refuses a running run.
  if (record.status === 'suspended' && record.suspensionId === continuation.id) return true;
  const stale = (why: string) =>
    new ContinuationError(
      'CLAIM_CONFLICT',
      `Continuation "${continuation.id}" of run "${continuation.runId}" was already resumed: ${why}. Resume the run's latest continuation instead.`,
      { details: { runId: continuation.runId, status: record.status, head: record.suspensionId ?? null } },
    );
  if (record.status === 'completed' || record.status === 'rejected')
    throw stale(`the run's checkpoint log shows it ${record.status}`);
  const entries = await log.read(continuation.runId);
  const head = replayCheckpoints(entries).continuation;
  // The log's last recorded state itself (e.g. a failed run's, saved by recovery and retried).
  if (head && head.id === continuation.id && compareProgress(continuation, head) === 0) return false;
  const recorded = entries.some(
    (entry) =>
      (entry.type === 'suspend' && entry.suspension?.id === continuation.id) ||
      (entry.type === 'start' && entry.from?.id === continuation.id),
  );
  if (recorded || (head && compareProgress(continuation, head) <= 0)) {
    throw stale(
      record.status === 'suspended'
        ? `the log's last suspension is "${record.suspensionId}", at or past this one`
        : `the log's last recorded step is at or past this one`,
    );
  }
  return false;
}

/**
 * Which of two states of one run is further on: the agent's own counters first (model calls,
 * transcript length, decisions, settled calls of the turn), then, when equal, its sub-agents still
 * pending, depth first. A sub-agent that completed shows in its parent's counters, so its own
 * steps never need adding up. Positive when `a` is further on.
 */
function compareProgress(a: Continuation, b: Continuation): number {
  const x = [a.step, a.messages.length, a.decisions.length, a.done.length];
  const y = [b.step, b.messages.length, b.decisions.length, b.done.length];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  for (const entry of a.pending) {
    if (entry.kind !== 'agent') continue;
    const other = b.pending.find((candidate) => candidate.toolCallId === entry.toolCallId);
    if (other?.kind !== 'agent') continue;
    const child = compareProgress(entry.child, other.child);
    if (child !== 0) return child;
  }
  return 0;
}

/** Run `go` with a checkpoint at every step into `log` under `lease`, renewed while it runs. */
export async function driveDurably(
  log: CheckpointLog,
  lease: RunLease,
  base: CheckpointBase,
  options: DurableOptions,
  go: (options: RunOptions) => Promise<RunResult<unknown>>,
  claimed?: ClaimedResume,
): Promise<RunResult<unknown>> {
  const { owner: _owner, leaseMs = 30_000, onEvent: observe, signal, store, save, ...runOptions } = options;
  const write = async (entry: CheckpointStep | CheckpointEnd, suspended?: Continuation) => {
    // Nothing more is written once the lease is known lost, nor once the store's claim a stored
    // resume runs under is (its signal aborts with LEASE_LOST): another worker owns the run, and a
    // late step of this one could only take the log back to an older state.
    if (beat.lost) throw beat.lost;
    if (signal?.aborted && isContinuationError(signal.reason, 'LEASE_LOST')) throw signal.reason;
    // A suspension or an end releases the lease: stop renewing it first (throws if it was lost).
    if (entry.type !== 'step') await beat.stop();
    const target = claimed?.store ?? store;
    const ends = entry.type === 'end' && claimed !== undefined;
    if (!target || !(ends || (suspended && entry.type === 'suspend'))) return log.append(lease, entry);
    if (log.appendWith) {
      // The claim is completed with the suspension or the end: stop renewing it first.
      if (claimed) await claimed.stop();
      const write = {
        store: target,
        ...(suspended ? { next: suspended } : {}),
        ...(claimed ? { claim: claimed.claim() } : {}),
        ...((claimed?.save ?? save) ? { save: claimed?.save ?? save } : {}),
      };
      // One transaction, where the log and the store share a database.
      if (await log.appendWith(lease, entry, write)) {
        if (claimed) claimed.written = true;
        return;
      }
    }
    await log.append(lease, entry);
    if (claimed || !suspended) return; // resumeStored completes the claim, saving the suspension.
    await target.save(suspended, save);
    await log.markSaved?.(suspended.runId, suspended.id);
  };
  const record = checkpointer(write, base);
  // The lease is renewed between steps; a lost lease aborts the run (its tools see the signal),
  // and every later append is refused by the log, so the run writes nothing more.
  const beat = heartbeat(
    () => log.renew(lease),
    leaseMs,
    (cause) =>
      new ContinuationError(
        'LEASE_LOST',
        `The lease of ${lease.owner} on run "${lease.runId}" could not be renewed, and lapsed.`,
        { cause },
      ),
    signal,
  );
  let result: RunResult<unknown>;
  try {
    result = await go({
      ...runOptions,
      signal: beat.signal,
      // No model call or tool starts once the run's lease is known lost. (A log's lease that merely
      // lapsed is not renewed here: the logs refuse to renew an expired lease, and their appends
      // are fenced by the lease's token.) The claim of `resumeStored` is checked in full.
      beforeStart: beforeStartChecked(() => {
        if (beat.lost) throw beat.lost;
      }, runOptions.beforeStart),
      onEvent: async (event) => {
        await record(event);
        await observe?.(event);
      },
    });
  } catch (error) {
    await beat.stop();
    throw error;
  }
  await beat.stop();
  if (result.status === 'rejected') await write({ type: 'end', status: 'rejected' });
  return result;
}

export function leaseOptions(options: DurableOptions): LeaseOptions {
  return { owner: options.owner ?? crypto.randomUUID(), leaseMs: options.leaseMs ?? 30_000 };
}

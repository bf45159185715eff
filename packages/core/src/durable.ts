/**
 * Durable runs: run, resume and recover agents with a checkpoint at every step into a
 * {@link CheckpointLog}, holding the run's lease, so a crashed run is picked up at its last
 * recorded step by another worker.
 */
import {
  type CheckpointBase,
  type CheckpointEnd,
  type CheckpointEntry,
  type CheckpointLog,
  type CheckpointStart,
  type CheckpointStep,
  checkpointer,
  type LeaseOptions,
  type RunLease,
  replayCheckpoints,
} from './checkpoint';
import { parseContinuation } from './codec';
import { ContinuationError, isContinuationError } from './errors';
import { type Continuation, CURRENT_VERSION, emptyUsage, FORMAT } from './format';
import { inputMessages, type Message } from './messages';
import type { ContinuableAgent, Decisions, RunOptions, RunResult } from './protocol';
import { heartbeat } from './resume-stored';
import type { Claim, ContinuationStore, SaveOptions } from './store';
import { errorText } from './store-errors';
import { trustContinuation } from './trust';

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

/** Recovery attempts of a run before {@link recover} marks it `failed`: 3. */
export const DEFAULT_RECOVERY_ATTEMPTS = 3;

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

/**
 * Take over a run whose lease expired and go on from its last recorded step. A tool call whose
 * result was recorded never runs again; one that started without a recorded result runs again,
 * with the same `ctx.idempotencyKey`. Throws `CLAIM_CONFLICT` when another worker took it first.
 *
 * @example
 * ```ts
 * const result = await recoverRun(agent, log, 'run-42', { owner: 'worker-2' });
 * ```
 */
export async function recoverRun(
  agent: AnyAgent,
  log: CheckpointLog,
  runId: string,
  options: DurableOptions = {},
): Promise<RunResult<unknown>> {
  const lease = await log.takeOver(runId, leaseOptions(options));
  return goOn(agent, log, lease, options);
}

/** Go on with a run whose lease was just taken over, from its last recorded step. */
async function goOn(
  agent: AnyAgent,
  log: CheckpointLog,
  lease: RunLease,
  options: DurableOptions,
): Promise<RunResult<unknown>> {
  const { runId } = lease;
  const replay = replayCheckpoints(await log.read(runId));
  const next = replay.next;
  if (!next) {
    const state = replay.continuation!;
    await log.append(lease, { type: 'end', status: 'completed', output: replay.output ?? null });
    return {
      status: 'completed',
      output: replay.output,
      messages: state.messages,
      runId,
      usage: state.usage,
      step: state.step,
      decisions: state.decisions,
    };
  }
  if (next.kind === 'run') {
    const base = { messages: next.input, done: [], pending: [], decisions: [] };
    const metadata = next.metadata;
    return driveDurably(log, lease, base, options, (run) =>
      agent.run(next.input, { ...run, runId, metadata }),
    );
  }
  // The log's own record: a sealed agent goes on from it without a seal.
  const continuation = trustContinuation(next.continuation);
  return driveDurably(log, lease, continuation, options, (run) =>
    agent.resume(continuation, next.decisions, run),
  );
}

/** The start entry of the run's last segment. */
function lastStart(entries: readonly CheckpointEntry[]): CheckpointStart | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.type === 'start') return entry;
  }
  return undefined;
}

/**
 * Make the store agree with the log once a segment ended: the stored continuation the segment
 * resumed is marked resumed (through the claim it ran under, recorded in its start entry, or a new
 * claim once that one lapsed) and `next`, the run's next suspension, saved in the same step. The
 * record the claim was on is settled even when the segment resumed another continuation (a
 * `resumeStored` that recovered a dead worker's run resumes the log's own suspension under it), and
 * when the claim changed hands since (a later worker claimed it and died too). A record another
 * worker holds is left to it (it finds the log moved past it, and settles it).
 */
export async function settleStore(
  store: ContinuationStore,
  log: CheckpointLog,
  start: CheckpointStart | undefined,
  next: Continuation | undefined,
  owner: string,
  save: SaveOptions = {},
): Promise<void> {
  const completeOptions = next ? { ...save, next } : {};
  const resumedId = start?.fromId ?? start?.from?.id;
  let saved = false;
  if (start?.claim) {
    try {
      await store.complete(start.claim, completeOptions);
      saved = true;
    } catch (error) {
      if (!isContinuationError(error, 'LEASE_LOST')) throw error;
    }
  }
  // The record the claim was on, then the continuation the segment resumed, when it is another one.
  const ids = [start?.claim?.id, resumedId].filter((id): id is string => id !== undefined);
  for (const id of new Set(ids)) {
    if (saved && id === start?.claim?.id) continue; // Completed through its claim above.
    try {
      await store.complete(await store.claim(id, { owner }), saved ? {} : completeOptions);
      saved = true;
    } catch (error) {
      // Missing, resumed already, failed, or held by a live worker.
      if (!isContinuationError(error)) throw error;
    }
  }
  if (!saved && next && !(await store.load(next.id))) await store.save(next, save);
  if (next) await log.markSaved?.(next.runId, next.id);
}

/** One run handled by {@link recover}. */
export interface RecoveredRun {
  runId: string;
  result?: RunResult<unknown>;
  error?: unknown;
  /** True when this attempt was the last: the run is now `failed` in the log (and in the store). */
  failed?: boolean;
}

/** Options of {@link recover}. */
export interface RecoverOptions extends DurableOptions {
  /** Save suspended results here, and the last good state of runs that failed. */
  store?: ContinuationStore;
  /** Runs looked at per call; 100 by default. */
  limit?: number;
  /**
   * Recovery attempts per run ({@link DEFAULT_RECOVERY_ATTEMPTS}, 3, by default). A run whose
   * recovery fails is tried again once its lease lapses; after this many failed attempts it is
   * marked `failed` with the last error (`log.status(runId)`), and its last recorded state is saved
   * in `store` as a `failed` continuation (`store.list({ status: 'failed' })`). To retry it on
   * purpose: `store.retry(id)`, then resume it (`resumeStored`, or `resumeDurably` with the log).
   * A run that failed before its first step is saved with its input. When the worker died between
   * the log's `fail` and the store's record, a later `recover` writes the record (with a log that
   * lists such runs in `unsaved`).
   */
  maxAttempts?: number;
}

/**
 * Find runs whose worker died (lease expired) and go on with each from its last checkpoint.
 * Suspended results are saved into `store` when given. Runs another worker took first are skipped.
 * A run that keeps failing is given up after `maxAttempts` (see {@link RecoverOptions}).
 *
 * @example
 * ```ts
 * const recovered = await recover(log, { [agent.name]: agent }, { store, owner: 'worker-2' });
 * const { items } = await store.list({ status: 'failed' }); // runs recovery gave up on, with their error
 * ```
 */
export async function recover(
  log: CheckpointLog,
  agents: Readonly<Record<string, AnyAgent>>,
  options: RecoverOptions = {},
): Promise<RecoveredRun[]> {
  const { store, limit: _limit, maxAttempts = DEFAULT_RECOVERY_ATTEMPTS, save: _save, ...durable } = options;
  const owner = durable.owner ?? crypto.randomUUID();
  const limit = options.limit ?? 100;
  if (store && log.unsaved) {
    // Suspensions the log recorded and the store never got: the worker died in between.
    for (const runId of await log.unsaved({ limit })) {
      const entries = await log.read(runId);
      const replay = replayCheckpoints(entries);
      const record = await log.status(runId);
      if (record?.status === 'failed') {
        // Given up in the log, and the worker died before the store's `failed` record.
        try {
          const error = record.error ?? 'Recovery gave up on this run.';
          await storeFailed(store, log, runId, error, owner, agents[record.agentName]);
        } catch (error) {
          // Held by a worker still writing it: a later call looks again.
          if (!isContinuationError(error)) throw error;
        }
        continue;
      }
      if (replay.status !== 'suspended' || !replay.continuation) continue;
      await settleStore(store, log, lastStart(entries), replay.continuation, owner, options.save);
    }
  }
  const runIds = await log.expired({ limit });
  const outcomes = await Promise.all(
    runIds.map(async (runId): Promise<RecoveredRun | undefined> => {
      const record = await log.status(runId);
      const agent = record ? agents[record.agentName] : undefined;
      if (!agent) {
        const error = new ContinuationError(
          'NOT_FOUND',
          `No agent "${record?.agentName}" to recover run "${runId}" with.`,
        );
        return { runId, error };
      }
      let lease: RunLease;
      try {
        lease = await log.takeOver(runId, leaseOptions({ ...durable, owner }));
      } catch (error) {
        if (isContinuationError(error, 'CLAIM_CONFLICT')) return undefined;
        return { runId, error };
      }
      const attempts = (await log.status(runId))?.attempts ?? 1;
      try {
        const start = lastStart(await log.read(runId));
        const result = await goOn(agent, log, lease, { ...durable, owner });
        if (store) {
          const next = result.status === 'suspended' ? result.continuation : undefined;
          await settleStore(store, log, start, next, owner, options.save);
        }
        return { runId, result };
      } catch (error) {
        // Lost to another worker, or not the last attempt: the lease lapses, and a later call tries again.
        if (isContinuationError(error, 'LEASE_LOST') || attempts < maxAttempts) return { runId, error };
        await giveUp(log, lease, error, store, agent);
        return { runId, error, failed: true };
      }
    }),
  );
  return outcomes.filter((outcome): outcome is RecoveredRun => outcome !== undefined);
}

/** Mark a run failed in the log, and save its last recorded state in the store as failed. */
async function giveUp(
  log: CheckpointLog,
  lease: RunLease,
  error: unknown,
  store: ContinuationStore | undefined,
  agent: AnyAgent,
): Promise<void> {
  const text = errorText(error);
  await log.fail(lease, text);
  // A worker dying from here on leaves the run `unsaved` in the log: `recover` writes the store's part.
  if (store) await storeFailed(store, log, lease.runId, text, lease.owner, agent);
}

/**
 * The store's half of giving up on a run: its last recorded state saved as `failed` with `error`
 * (once: a record already failed is left as it is), the stored continuation its last segment
 * resumed settled, and the log told the run is saved (so `unsaved` no longer lists it).
 */
async function storeFailed(
  store: ContinuationStore,
  log: CheckpointLog,
  runId: string,
  error: string,
  by: string,
  agent: AnyAgent | undefined,
): Promise<void> {
  const entries = await log.read(runId);
  const start = lastStart(entries);
  const last = replayCheckpoints(entries).continuation ?? (await inputState(start, agent));
  if (last) {
    // The stored continuation the failed segment resumed is settled: its successor is the failed state.
    if ((start?.fromId ?? start?.from?.id) !== last.id) await settleStore(store, log, start, undefined, by);
    if ((await store.load(last.id))?.status !== 'failed') {
      await store.save(last);
      await store.fail(await store.claim(last.id, { owner: by }), error);
    }
  }
  await log.markSaved?.(runId, last?.id ?? runId);
}

/**
 * The state of a new run that failed before its first step (its log has none): its input, as
 * `agent` starts it, so that it can be retried from the store like any failed run.
 */
async function inputState(
  start: CheckpointStart | undefined,
  agent: AnyAgent | undefined,
): Promise<Continuation | undefined> {
  if (!start?.input) return undefined;
  // The engine's agents say their fingerprint (not part of the protocol): a retry checks drift with it.
  const fingerprint = await (agent as { fingerprint?: () => Promise<string> } | undefined)?.fingerprint?.();
  const ref = {
    name: agent?.name ?? start.agentName,
    framework: agent?.framework ?? 'core',
    ...(fingerprint === undefined ? {} : { fingerprint }),
  };
  return parseContinuation({
    format: FORMAT,
    version: CURRENT_VERSION,
    id: `${start.runId}@0`,
    runId: start.runId,
    agent: ref,
    messages: start.input,
    pending: [],
    done: [],
    step: 0,
    usage: emptyUsage(),
    suspendedBy: { type: 'checkpoint' },
    metadata: start.metadata ?? {},
    decisions: [],
    createdAt: start.at,
  });
}

async function driveDurably(
  log: CheckpointLog,
  lease: RunLease,
  base: CheckpointBase,
  options: DurableOptions,
  go: (options: RunOptions) => Promise<RunResult<unknown>>,
  claimed?: ClaimedResume,
): Promise<RunResult<unknown>> {
  const { owner: _owner, leaseMs = 30_000, onEvent: observe, signal, store, save, ...runOptions } = options;
  const write = async (entry: CheckpointStep | CheckpointEnd, suspended?: Continuation) => {
    // Nothing more is written once the lease is known lost.
    if (beat.lost) throw beat.lost;
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

function leaseOptions(options: DurableOptions): LeaseOptions {
  return { owner: options.owner ?? crypto.randomUUID(), leaseMs: options.leaseMs ?? 30_000 };
}

/**
 * Recovery: take over runs whose worker died (their lease lapsed) and go on from their last
 * recorded step; make the store agree with the log; give up on a run that keeps failing.
 */

import type { ContinuableAgent, RunResult } from '../engine/protocol';
import { ContinuationError, isContinuationError } from '../errors';
import { parseContinuation } from '../format/codec';
import { type Continuation, CURRENT_VERSION, emptyUsage, FORMAT } from '../format/format';
import { type Claim, type ContinuationStore, DEFAULT_LEASE_MS, type SaveOptions } from '../stores/store';
import { errorText } from '../stores/store-errors';
import { trustContinuation } from '../trust/trust';
import {
  type CheckpointEntry,
  type CheckpointLog,
  type CheckpointStart,
  type RunLease,
  replayCheckpoints,
} from './checkpoint';
import { type ClaimedResume, type DurableOptions, driveDurably, leaseOptions } from './durable';
import { holdClaim } from './lease';

/** Recovery attempts of a run before {@link recover} marks it `failed`: 3. */
export const DEFAULT_RECOVERY_ATTEMPTS = 3;

/** Any agent: recovery only calls `run` and `resume`. */
type AnyAgent = ContinuableAgent<any, unknown>;

/**
 * Take over a run whose lease expired and go on from its last recorded step. A tool call whose
 * result was recorded never runs again; one that started without a recorded result runs again,
 * with the same `ctx.idempotencyKey`. Throws `CLAIM_CONFLICT` when another worker took it first.
 *
 * With `store`, the stored record the run's last segment was resumed from (`resumeStored` with a
 * log, whose worker died) is settled when the run completes or suspends again: claimed anew and
 * completed with the run's end or next suspension, in the log's transaction where the log and
 * the store share a database. Without it, a later `recover(log, agents, { store })` settles it.
 *
 * @example
 * ```ts
 * const result = await recoverRun(agent, log, 'run-42', { owner: 'worker-2', store });
 * ```
 *
 * @deprecated Use `runtime.recover({ runId })` from `createRuntime`, given a `log`.
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

/**
 * Go on with a run whose lease was just taken over, from its last recorded step; with
 * `options.store`, settle the stored record its last segment resumed (see {@link recoverRun}).
 */
async function goOn(
  agent: AnyAgent,
  log: CheckpointLog,
  lease: RunLease,
  options: DurableOptions,
): Promise<RunResult<unknown>> {
  const { runId } = lease;
  const { store, save, ...durable } = options;
  const entries = await log.read(runId);
  const start = lastStart(entries);
  const claimed = store ? await reclaim(store, start, options) : undefined;
  let result: RunResult<unknown>;
  try {
    result = await goOnFrom(agent, log, lease, replayCheckpoints(entries), durable, claimed);
  } catch (error) {
    // The log still holds the run: the next recovery claims the record again.
    if (claimed)
      await claimed.stop().then(
        () => claimed.store.release(claimed.claim()),
        () => {},
      );
    throw error;
  }
  if (!store) return result;
  const next = result.status === 'suspended' ? result.continuation : undefined;
  if (!claimed) {
    await settleStore(store, log, start, next, lease.owner, save);
    return result;
  }
  if (claimed.written) return result; // Completed with the end or the suspension, in the log's transaction.
  await claimed.stop();
  await store.complete(claimed.claim(), next ? { ...save, next } : {});
  await log.markSaved?.(runId, next?.id ?? runId);
  return result;
}

/** Go on from the log's replay: end a run whose final answer is recorded, or drive it on. */
async function goOnFrom(
  agent: AnyAgent,
  log: CheckpointLog,
  lease: RunLease,
  replay: ReturnType<typeof replayCheckpoints>,
  options: DurableOptions,
  claimed: ClaimedResume | undefined,
): Promise<RunResult<unknown>> {
  const { runId } = lease;
  const next = replay.next;
  if (!next) {
    const state = replay.continuation!;
    const end = { type: 'end' as const, status: 'completed' as const, output: replay.output ?? null };
    if (claimed && log.appendWith) {
      await claimed.stop();
      claimed.written = await log.appendWith(lease, end, { store: claimed.store, claim: claimed.claim() });
    }
    if (!claimed?.written) await log.append(lease, end);
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
    return driveDurably(
      log,
      lease,
      base,
      options,
      (run) => agent.run(next.input, { ...run, runId, metadata }),
      claimed,
    );
  }
  // The log's own record: a sealed agent goes on from it without a seal.
  const continuation = trustContinuation(next.continuation);
  return driveDurably(
    log,
    lease,
    continuation,
    options,
    (run) => agent.resume(continuation, next.decisions, run),
    claimed,
  );
}

/**
 * Claim again the stored record the segment was resumed from under a claim (its worker died), to
 * settle it with the run's end or next suspension. Claimed anew once the dead claim lapsed, or
 * kept under the dead claim while it still holds; undefined when neither (missing, settled
 * already, or held by a live worker, which finds the log moved past it and settles it).
 */
async function reclaim(
  store: ContinuationStore,
  start: CheckpointStart | undefined,
  options: DurableOptions,
): Promise<ClaimedResume | undefined> {
  const dead = start?.claim;
  if (!dead) return undefined;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  let claim: Claim;
  try {
    claim = await store.claim(dead.id, { owner: options.owner ?? crypto.randomUUID(), leaseMs });
  } catch (error) {
    if (!isContinuationError(error)) throw error;
    try {
      claim = await store.renew(dead, { leaseMs });
    } catch (renewal) {
      if (!isContinuationError(renewal)) throw renewal;
      return undefined;
    }
  }
  const held = holdClaim(store, claim, { leaseMs, ...(options.signal ? { signal: options.signal } : {}) });
  return {
    store,
    claim: () => held.claim,
    stop: () => held.stop(),
    ...(options.save ? { save: options.save } : {}),
  };
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
  await settleRecords(store, start, next, owner, save);
  const runId = next?.runId ?? start?.runId;
  if (runId) await log.markSaved?.(runId, next?.id ?? runId);
}

/** {@link settleStore} without telling the log: the caller has more to write before the run is saved. */
async function settleRecords(
  store: ContinuationStore,
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
}

/**
 * Settle the stored records that the run's earlier segments were resumed from under a claim: the
 * log moved past each of them. One already settled (the usual case) is left as it is.
 */
async function settleClaimed(
  store: ContinuationStore,
  entries: readonly CheckpointEntry[],
  owner: string,
): Promise<void> {
  const last = lastStart(entries);
  for (const entry of entries) {
    if (entry.type !== 'start' || !entry.claim || entry === last) continue;
    try {
      await store.complete(entry.claim);
      continue;
    } catch (error) {
      if (!isContinuationError(error)) throw error;
    }
    try {
      await store.complete(await store.claim(entry.claim.id, { owner }));
    } catch (error) {
      // Missing, resumed already, or held by a live worker (which finds the log moved past it).
      if (!isContinuationError(error)) throw error;
    }
  }
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
 *
 * @deprecated Use `runtime.recover()` from `createRuntime`, given a `log`.
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
      if (replay.status === 'completed' || replay.status === 'rejected') {
        // Ended by a worker that had no store (or died before settling it): settle the records its
        // segments were resumed from, so no inbox offers a suspension the log moved past.
        await settleClaimed(store, entries, owner);
        await settleStore(store, log, lastStart(entries), undefined, owner);
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
        const settle = store ? { store, ...(options.save ? { save: options.save } : {}) } : {};
        const result = await goOn(agent, log, lease, { ...durable, owner, ...settle });
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
    if ((start?.fromId ?? start?.from?.id) !== last.id) await settleRecords(store, start, undefined, by);
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

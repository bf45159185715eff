/**
 * Resume a stored continuation under a claim, so that two workers (or a double-clicked button)
 * never resume it twice. The claim is renewed while the resume runs; a claimant that lost it is
 * aborted and writes nothing.
 */

import { listActions } from '../engine/actions';
import type { ContinuableAgent, Decisions, RunEvent, RunOptions, RunResult } from '../engine/protocol';
import type { AgentStream } from '../engine/stream';
import { ContinuationError, type ErrorCode, isContinuationError } from '../errors';
import type { Continuation } from '../format/format';
import { type NotifyOptions, notifySuspended } from '../people/notify';
import {
  type Claim,
  type ClaimOptions,
  type ContinuationStore,
  DEFAULT_LEASE_MS,
  type SaveOptions,
} from '../stores/store';
import { errorText } from '../stores/store-errors';
import { trustContinuation } from '../trust/trust';
import { type CheckpointLog, replayCheckpoints } from './checkpoint';
import { type ClaimedResume, type DurableOptions, fenceByStep, resumeFenced } from './durable';
import { beforeStartChecked, type HeldClaim, holdClaim, keepClaim } from './lease';
import { recoverRun } from './recover';

/** Options of {@link resumeStored} and {@link streamStored}. */
export interface ResumeStoredOptions extends RunOptions, ClaimOptions, NotifyOptions {
  /** How to save the next continuation when the run suspends again. */
  save?: SaveOptions;
  /**
   * Record every step of the resume in this checkpoint log, under the claim ({@link resumeStored}
   * only). A crash mid-run is then finished by `recover(log, agents, { store })`, which also settles
   * the stored record, and a continuation the log has moved past is refused (`CLAIM_CONFLICT`)
   * before anything runs.
   */
  log?: CheckpointLog;
  /**
   * Resume under this claim of `id`, taken earlier and still unsettled (a hand-off's, as the
   * pg-boss worker's `submitDecisions` takes one): it is renewed instead of taken anew, so the
   * record never reads as waiting in between. `LEASE_LOST` when it lapsed and another took it.
   */
  claim?: Claim;
}

/** Decisions, or a function that makes them from the stored continuation (e.g. from its actions). */
export type StoredDecisions = Decisions | ((continuation: Continuation) => Decisions);

/**
 * Claim `id`, resume it with `decisions`, and settle the stored record; a second call for the same
 * `id` fails with `CLAIM_CONFLICT` and runs nothing. While the resume runs, the claim is renewed
 * every third of `leaseMs` (30 s by default), so a slow tool never lets another worker in.
 *
 * How the record is settled, by outcome (the store never says `completed` for a run that did not
 * go on):
 * - completed or rejected: `id` is marked resumed (`completed`);
 * - suspended again: the next continuation is saved and `id` marked resumed, in one atomic step;
 * - an error that carries the run's last good state (`MODEL_ERROR`, and any error with a
 *   `continuation`): that state is saved under its own id and `id` marked resumed, then the error
 *   is rethrown; resuming the saved state (no decisions needed) retries from there;
 * - a refusal before anything ran (bad decisions, a changed agent, an invalid continuation): the
 *   claim is given back, `id` stays `suspended`;
 * - any other error, after tools may have run: `id` is marked `failed` with the error (see
 *   `store.list({ status: 'failed' })`); `store.retry(id)` makes it claimable again on purpose;
 * - the claim was lost (a renewal failed: the lease lapsed and another worker took it): the run's
 *   `AbortSignal` fires (tools see `ctx.signal.aborted`), nothing is written, and the call fails
 *   with `LEASE_LOST`.
 *
 * @example
 * ```ts
 * const result = await resumeStored(store, agent, continuationId, {
 *   [actionId]: { type: 'approve', by: 'ann@example.com' },
 * });
 * ```
 *
 * @deprecated Use `runtime.resume(id, decisions)` from `createRuntime`.
 */
export async function resumeStored<Output>(
  store: ContinuationStore,
  agent: ContinuableAgent<any, Output>,
  id: string,
  decisions: StoredDecisions = {},
  options: ResumeStoredOptions = {},
): Promise<RunResult<Output>> {
  const { held, continuation, decided } = await claimChecked(store, agent, id, decisions, options);
  if (options.log) {
    return notified(resumeLogged(store, agent, options.log, held, continuation, decided, options), options);
  }
  const watch = watched(held, options);
  let running: Promise<RunResult<Output>>;
  try {
    running = agent.resume(continuation, decided, watch.options);
  } catch (error) {
    running = Promise.reject(error);
  }
  return notified(settle(store, held, running, watch.ran, options), options);
}

/** The run's result, once `onSuspend` was told of a suspension (after it was saved). */
async function notified<Output>(
  running: Promise<RunResult<Output>>,
  options: NotifyOptions,
): Promise<RunResult<Output>> {
  const result = await running;
  await notifySuspended(result, options);
  return result;
}

/**
 * {@link resumeStored} with a checkpoint log: fence by step, record the resume's steps under the
 * claim, settle the record by the outcome. After a crash, or an error that leaves the run going in
 * the log, the claim is kept: `recover` finishes the run and completes it.
 */
async function resumeLogged<Output>(
  store: ContinuationStore,
  agent: ContinuableAgent<any, Output>,
  log: CheckpointLog,
  held: HeldClaim,
  continuation: Continuation,
  decisions: Decisions,
  options: ResumeStoredOptions,
): Promise<RunResult<Output>> {
  const {
    save: _save,
    owner = held.claim.owner,
    leaseMs,
    log: _log,
    onSuspend: _onSuspend,
    links: _links,
    ...runOptions
  } = options;
  const durable = {
    ...runOptions,
    owner,
    ...(leaseMs === undefined ? {} : { leaseMs }),
    signal: held.signal,
    beforeStart: beforeStartChecked(held.check, runOptions.beforeStart),
  };
  let known: boolean | 'running';
  try {
    const record = await log.status(continuation.runId);
    // An earlier resume of this record began and its worker died: go on from its last step.
    known = record?.status === 'running' ? 'running' : await fenceByStep(log, continuation);
  } catch (error) {
    const kept = await held.stop().then(
      () => true,
      () => false,
    );
    if (kept && isContinuationError(error, 'CLAIM_CONFLICT') && error.details) {
      // The log moved past it: an earlier resume went on. The record is resumed; the log's last
      // suspension takes its place when the store lacks it.
      const replay = replayCheckpoints(await log.read(continuation.runId));
      const next = replay.status === 'suspended' ? replay.continuation : undefined;
      const missing = next && !(await store.load(next.id));
      await store.complete(held.claim, missing ? { ...options.save, next } : {});
      if (next) await log.markSaved?.(next.runId, next.id);
    } else if (kept) await store.release(held.claim);
    throw error;
  }
  const claimed: ClaimedResume = {
    store,
    claim: () => held.claim,
    stop: () => held.stop(),
    ...(options.save ? { save: options.save } : {}),
  };
  const running =
    known === 'running'
      ? recoverThenDecide(agent, log, continuation.runId, decisions, durable, claimed)
      : resumeFenced(agent, log, continuation, decisions, durable, known, claimed);
  return settleLogged(store, log, held, running, options, claimed);
}

/**
 * Go on with a run an earlier resume of the same record began (its worker died), then apply this
 * call's decisions to what still waits: those the earlier attempt already applied are in the
 * audit trail; the others are applied now, so none is dropped. A call the earlier attempt left in
 * doubt waits for a decision about that doubt.
 */
async function recoverThenDecide(
  agent: ContinuableAgent<any, unknown>,
  log: CheckpointLog,
  runId: string,
  decisions: Decisions,
  options: DurableOptions,
  claimed: ClaimedResume,
): Promise<RunResult<unknown>> {
  const recovered = await recoverRun(agent, log, runId, options);
  if (recovered.status !== 'suspended') return recovered;
  // A call now in doubt keeps its id, but a decision made before it started cannot answer it.
  const waiting = new Set(
    listActions(recovered.continuation)
      .filter((action) => !action.inDoubt)
      .map((action) => action.id),
  );
  const left = Object.fromEntries(Object.entries(decisions).filter(([id]) => waiting.has(id)));
  if (Object.keys(left).length === 0) return recovered;
  // The log's own last suspension, resumed by reference under the same claim.
  const next = trustContinuation(recovered.continuation);
  return resumeFenced(agent, log, next, left, options, true, claimed);
}

/** Settle the record of a logged resume: complete it (saving a suspension) once the run ended or suspended. */
async function settleLogged<Output>(
  store: ContinuationStore,
  log: CheckpointLog,
  held: HeldClaim,
  running: Promise<RunResult<unknown>>,
  options: ResumeStoredOptions,
  claimed?: ClaimedResume,
): Promise<RunResult<Output>> {
  let result: RunResult<unknown>;
  try {
    result = await running;
  } catch (error) {
    const kept = await held.stop().then(
      () => true,
      () => false,
    );
    // Refused before the log began (the run is under way elsewhere): give the claim back.
    if (kept && isContinuationError(error, 'CLAIM_CONFLICT')) await store.release(held.claim);
    // Otherwise the log holds the run: recovery goes on from its last step and settles the record.
    throw error;
  }
  await held.stop();
  // Already completed with the suspension, in the log's transaction.
  if (claimed?.written) return result as RunResult<Output>;
  const next = result.status === 'suspended' ? result.continuation : undefined;
  await store.complete(held.claim, next ? { ...options.save, next } : {});
  const runId = result.status === 'suspended' ? result.continuation.runId : result.runId;
  await log.markSaved?.(runId, next?.id ?? runId);
  return result as RunResult<Output>;
}

/** An agent that can stream a resume, like the engine's agents. */
export interface StreamingAgent<Output> {
  stream(
    input: { continuation: Continuation; decisions?: Decisions },
    options?: RunOptions,
  ): AgentStream<Output>;
  checkDecisions?(continuation: Continuation, decisions: Decisions): Promise<void>;
}

/**
 * {@link resumeStored} for a streamed resume: claims `id`, checks the decisions, and returns the
 * run's stream. The claim is renewed while the stream runs; when the run ends the record is
 * settled as {@link resumeStored} describes, before the stream's `result` settles.
 *
 * @example
 * ```ts
 * const run = await streamStored(store, agent, ref.id, (continuation) =>
 *   decisionsFromUIMessages(messages, listActions(continuation), { by: user.email }),
 * );
 * return toUIMessageStreamResponse(run);
 * ```
 *
 * @deprecated Use `runtime.stream(id, decisions)` from `createRuntime`.
 */
export async function streamStored<Output>(
  store: ContinuationStore,
  agent: StreamingAgent<Output>,
  id: string,
  decisions: StoredDecisions = {},
  options: ResumeStoredOptions = {},
): Promise<AgentStream<Output>> {
  const { held, continuation, decided } = await claimChecked(store, agent, id, decisions, options);
  const watch = watched(held, options);
  let run: AgentStream<Output>;
  try {
    run = agent.stream({ continuation, decisions: decided }, watch.options);
  } catch (error) {
    // Nothing ran: a settle of a rejected run gives the claim back for a refusal.
    await settle(store, held, Promise.reject(error), watch.ran, options);
    throw error;
  }
  const result = notified(settle(store, held, run.result, watch.ran, options), options);
  // The iterator reports a failure; an unobserved `result` must not crash the process.
  result.catch(() => {});
  return { result, [Symbol.asyncIterator]: () => run[Symbol.asyncIterator]() };
}

/** Errors that refuse a resume before it runs anything: the claim can go back. */
const REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INVALID_JSON',
  'INVALID_FORMAT',
  'UNSUPPORTED_VERSION',
  'INVALID_CONTINUATION',
  'UNSAFE_KEY',
  'SEAL_MISMATCH',
  'SEAL_MISSING',
  'UNKNOWN_ACTION',
  'INVALID_DECISION',
  'WRONG_DECISION_KIND',
  'DECISION_NOT_ALLOWED',
  'INVALID_ARGS',
  'INVALID_INPUT',
  'AGENT_MISMATCH',
  'AGENT_CHANGED',
  'UNKNOWN_TOOL',
  'NOT_RESUMABLE',
  'STATE_MISMATCH',
  'DECRYPT_FAILED',
  'INVALID_OPERATION',
]);

async function claimChecked(
  store: ContinuationStore,
  agent: { checkDecisions?(continuation: Continuation, decisions: Decisions): Promise<void> },
  id: string,
  decisions: StoredDecisions,
  options: ResumeStoredOptions,
): Promise<{ held: HeldClaim; continuation: Continuation; decided: Decisions }> {
  if (options.claim && options.claim.id !== id) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `The claim given is of "${options.claim.id}", not of "${id}": nothing was resumed.`,
    );
  }
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const claim = options.claim
    ? await keepClaim(store, options.claim, leaseMs)
    : await store.claim(id, options);
  const held = holdClaim(store, claim, {
    leaseMs,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const stored = await store.load(id);
    if (!stored) throw new ContinuationError('NOT_FOUND', `Continuation "${id}" disappeared from the store.`);
    const decided = typeof decisions === 'function' ? decisions(stored.continuation) : decisions;
    await agent.checkDecisions?.(stored.continuation, decided);
    return { held, continuation: stored.continuation, decided };
  } catch (error) {
    // Nothing ran: another worker may take it (unless it already did).
    const stillHeld = await held.stop().then(
      () => true,
      () => false,
    );
    if (stillHeld) await store.release(held.claim);
    throw error;
  }
}

/** The run's options under the held claim: its signal, and an observer that notes that something ran. */
function watched(held: HeldClaim, options: ResumeStoredOptions): { options: RunOptions; ran: () => boolean } {
  let ran = false;
  const {
    save: _save,
    owner: _owner,
    leaseMs: _leaseMs,
    onSuspend: _onSuspend,
    links: _links,
    ...runOptions
  } = options;
  return {
    ran: () => ran,
    options: {
      ...runOptions,
      signal: held.signal,
      // Nothing starts under a claim that was lost or whose lease lapsed.
      beforeStart: beforeStartChecked(held.check, runOptions.beforeStart),
      onEvent: async (event: RunEvent) => {
        ran = true;
        await options.onEvent?.(event);
      },
    },
  };
}

/** Settle the stored record by the run's outcome (see {@link resumeStored}). */
async function settle<Output>(
  store: ContinuationStore,
  held: HeldClaim,
  running: Promise<RunResult<Output>>,
  ran: () => boolean,
  options: ResumeStoredOptions,
): Promise<RunResult<Output>> {
  let result: RunResult<Output>;
  try {
    result = await running;
  } catch (error) {
    // A lost claim writes nothing: stop() throws LEASE_LOST.
    await held.stop();
    const last = lastGoodState(error);
    if (last) {
      // Decided calls already ran: keep the state after them, to resume once the cause is gone.
      await store.complete(held.claim, { ...options.save, next: last });
    } else if (!ran() && isContinuationError(error) && REFUSALS.has(error.code)) {
      await store.release(held.claim);
    } else {
      await store.fail(held.claim, errorText(error));
    }
    throw error;
  }
  await held.stop();
  await store.complete(
    held.claim,
    result.status === 'suspended' ? { ...options.save, next: result.continuation } : {},
  );
  return result;
}

/** The last good state an error carries (a `ModelCallError`'s, or any typed error's `continuation`). */
function lastGoodState(error: unknown): Continuation | undefined {
  if (!isContinuationError(error)) return undefined;
  const { continuation } = error as { continuation?: Continuation };
  return continuation;
}

/**
 * Checkpoints during a run: an append-only log per run, written at every step, from which a
 * crashed run is picked up at its last recorded step.
 *
 * Each entry holds only what is new since the previous one (the new message, the new tool result,
 * the pending entries of the current turn and the counters), so the bytes written over an N-step
 * run grow linearly with N and a step costs about the same at step 100 as at step 1. A log
 * is a sequence of segments: a `start` (a new run, or a resume with its decisions), then `step`
 * entries, then a `suspend` or `end`. A resume of the log's own last suspension refers to it by
 * id instead of writing the transcript again.
 */

import { newContinuation } from '../engine/new-continuation';
import type { Decisions, RunEvent } from '../engine/protocol';
import { ContinuationError } from '../errors';
import { parseContinuation } from '../format/codec';
import {
  type AgentRef,
  type AuditEntry,
  type Continuation,
  type DoneEntry,
  emptyUsage,
  type PendingEntry,
  type SuspendReason,
  type Usage,
} from '../format/format';
import type { JsonObject, JsonValue } from '../format/json';
import { type Message, textOf, toolCallsOf } from '../format/messages';
import type { Claim, ContinuationStore, SaveOptions } from '../stores/store';

/** The first entry of a segment: a new run, or a resume. */
export interface CheckpointStart {
  type: 'start';
  runId: string;
  agentName: string;
  /** ISO time the segment began. */
  at: string;
  /** A new run: its input messages and metadata. */
  input?: Message[];
  metadata?: JsonObject;
  /** A resume of a continuation not recorded in this log: the whole continuation. */
  from?: Continuation;
  /** A resume of this log's last suspension: its id. */
  fromId?: string;
  /** The decisions the resume applies. */
  decisions?: Decisions;
  /**
   * A resume of a stored continuation: the store's claim it runs under. Recovery completes that
   * claim (saving the run's next suspension in the same step) when it finishes the run.
   */
  claim?: Claim;
}

/** What changed at one step; `suspend` also closes the segment. */
export interface CheckpointStep {
  type: 'step' | 'suspend';
  step: number;
  usage: Usage;
  /** Messages appended since the previous entry. */
  messages?: Message[];
  /** Settled calls of the current turn, appended (after clearing them when `resetDone`). */
  done?: DoneEntry[];
  resetDone?: true;
  /** The unsettled calls of the current turn, replacing the previous list. */
  pending?: PendingEntry[];
  /** Audit entries appended. */
  decisions?: AuditEntry[];
  /** The agent reference, when it changed. */
  agent?: AgentRef;
  /** On `suspend`: the suspension's id, time and reason. */
  suspension?: { id: string; createdAt: string; suspendedBy: SuspendReason };
}

/** How a segment ended without suspending. */
export interface CheckpointEnd {
  type: 'end';
  status: 'completed' | 'rejected';
  output?: JsonValue;
}

/** One entry of a run's checkpoint log. */
export type CheckpointEntry = CheckpointStart | CheckpointStep | CheckpointEnd;

/** The right to write a run's log, held until `leaseUntil` and renewed by every append. */
export interface RunLease {
  runId: string;
  owner: string;
  token: string;
  leaseUntil: string;
}

/**
 * Where a run stands in its log. `failed`: recovery gave up on it after its attempts (see
 * {@link CheckpointLog.fail}); `error` says why. A new `begin` (a resume on purpose) starts it again.
 */
export interface RunRecord {
  runId: string;
  agentName: string;
  status: 'running' | 'suspended' | 'completed' | 'rejected' | 'failed';
  /** The id of the last recorded suspension. */
  suspensionId?: string;
  owner?: string;
  leaseUntil?: string;
  /** Take-overs since the run's segment began: how often recovery picked it up. */
  attempts?: number;
  /** For a `failed` run: the last error's message. */
  error?: string;
}

/** Options of taking a run's lease. */
export interface LeaseOptions {
  owner: string;
  /** How long the lease holds without an append or renewal. */
  leaseMs: number;
}

/**
 * An append-only checkpoint log with leases, implemented by the SQLite and Postgres stores.
 * Appends are fenced by the lease token: a worker that lost its lease cannot write any more.
 */
export interface CheckpointLog {
  /**
   * Take the run's lease and append `start`. Throws `CLAIM_CONFLICT` while the run is running
   * (its lease live, or expired and awaiting {@link CheckpointLog.takeOver}), or when a new run's id
   * is already taken.
   */
  begin(start: CheckpointStart, options: LeaseOptions): Promise<RunLease>;
  /** Append under the lease and extend it; `suspend` and `end` release it. `LEASE_LOST` when lost. */
  append(lease: RunLease, entry: CheckpointStep | CheckpointEnd): Promise<void>;
  /** Extend the lease without writing; `LEASE_LOST` when lost. */
  renew(lease: RunLease): Promise<void>;
  /**
   * Mark the running run `failed` with `error` (a message) and release the lease: recovery no longer
   * picks it up. `LEASE_LOST` when the lease was lost.
   */
  fail(lease: RunLease, error: string): Promise<void>;
  /** The run's entries, in order. */
  read(runId: string): Promise<CheckpointEntry[]>;
  status(runId: string): Promise<RunRecord | undefined>;
  /** Running runs whose lease expired: their worker died. */
  expired(options?: { limit?: number }): Promise<string[]>;
  /**
   * Take the lease of a running run whose lease expired, counting the attempt in the record's
   * `attempts`; exactly one caller wins, others get `CLAIM_CONFLICT`.
   */
  takeOver(runId: string, options: LeaseOptions): Promise<RunLease>;
  /**
   * Suspended runs whose last suspension was not marked saved in a store (see
   * {@link CheckpointLog.markSaved}): a worker died between the log's `suspend` and the store's
   * write. Also `failed` runs not marked saved since their `fail`: a worker died between the log's
   * `fail` and the store's `failed` record. Also completed or rejected runs whose last segment
   * began under a store claim (`start.claim`) and were not marked saved since: the stored record
   * that segment resumed may still be listed as waiting. {@link recover} settles them from the log.
   * Optional: without it, recovery cannot reconcile such runs.
   */
  unsaved?(options?: { limit?: number }): Promise<string[]>;
  /**
   * Note that suspension `suspensionId` of the run is saved in a store; a no-op once the run moved
   * on. For a `failed` run: its failed state is saved in a store (whatever `suspensionId`); for a
   * completed or rejected one: the stored record its last segment resumed is settled.
   */
  markSaved?(runId: string, suspensionId: string): Promise<void>;
  /**
   * Append a `suspend` (or `end`) entry and make `write` in the store in one transaction, when the store
   * shares the log's database (e.g. a SQLite store on the same file): then true, and the
   * suspension (or the end) is marked saved. False (nothing written) when it cannot: the caller appends and
   * writes the store itself. `LEASE_LOST` as for `append`; a store claim no longer held fails it
   * too, and nothing is written.
   */
  appendWith?(lease: RunLease, entry: CheckpointStep | CheckpointEnd, write: StoreWrite): Promise<boolean>;
}

/**
 * What goes into the store with a run's suspension or end: `next` (the suspension) saved, and the
 * stored continuation the run resumed marked resumed when `claim` is given (as
 * `store.complete(claim, { next })`). One of `next` and `claim` at least.
 */
export interface StoreWrite {
  store: ContinuationStore;
  next?: Continuation;
  claim?: Claim;
  save?: SaveOptions;
}

/** What a log says about a run: where it stands and how to pick it up. */
export interface CheckpointReplay {
  runId: string;
  agentName: string;
  status: RunRecord['status'];
  /** How many entries the log holds. */
  entries: number;
  /** The state at the last recorded step or suspension, as a continuation; absent before the first step. */
  continuation?: Continuation;
  /** For a running run: start it again, or resume from `continuation` with `decisions`. */
  next?:
    | { kind: 'run'; input: Message[]; metadata: JsonObject }
    | { kind: 'resume'; continuation: Continuation; decisions: Decisions };
  /** For a completed run: its output. */
  output?: JsonValue;
}

/** The parts of a state that entries are diffed against. */
export type CheckpointBase = Pick<Continuation, 'messages' | 'done' | 'pending' | 'decisions'> & {
  agent?: AgentRef;
};

/**
 * Turn run events into log appends: pass the result as `onEvent`. `base` is the state the segment
 * starts from: the run's input messages, or the resumed continuation.
 *
 * @example
 * ```ts
 * const lease = await log.begin({ type: 'start', runId, agentName: agent.name, at, input }, { owner, leaseMs });
 * const onEvent = checkpointer((entry) => log.append(lease, entry), { messages: input, done: [], pending: [], decisions: [] });
 * await agent.run(input, { runId, onEvent });
 * ```
 */
export function checkpointer(
  append: (entry: CheckpointStep | CheckpointEnd, continuation?: Continuation) => Promise<void>,
  base: CheckpointBase,
): (event: RunEvent) => Promise<void> {
  let previous = tracked(base);
  // Events of parallel tool calls arrive together: each entry is diffed against the one before it
  // at once (synchronously), and entries are appended one after another, in that order.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (entry: CheckpointStep | CheckpointEnd, continuation?: Continuation) => {
    const appended = queue.then(() => append(entry, continuation));
    queue = appended.catch(() => {});
    return appended;
  };
  const diff = (type: CheckpointStep['type'], continuation: Continuation): CheckpointStep => {
    const entry: CheckpointStep = { type, step: continuation.step, usage: continuation.usage };
    if (continuation.messages.length > previous.messages)
      entry.messages = continuation.messages.slice(previous.messages);
    const doneIds = continuation.done.map((done) => done.toolCallId);
    const kept = previous.done.every((id) => doneIds.includes(id));
    if (!kept) entry.resetDone = true;
    const added = kept
      ? continuation.done.filter((done) => !previous.done.includes(done.toolCallId))
      : continuation.done;
    if (added.length > 0) entry.done = added;
    const pending = JSON.stringify(continuation.pending);
    if (pending !== previous.pending) entry.pending = continuation.pending;
    if (continuation.decisions.length > previous.decisions)
      entry.decisions = continuation.decisions.slice(previous.decisions);
    if (JSON.stringify(continuation.agent) !== previous.agent) entry.agent = continuation.agent;
    if (type === 'suspend') {
      entry.suspension = {
        id: continuation.id,
        createdAt: continuation.createdAt,
        suspendedBy: continuation.suspendedBy,
      };
    }
    previous = tracked(continuation);
    return entry;
  };
  return async (event) => {
    if (event.type === 'model-call' || event.type === 'tool-result' || event.type === 'tool-start')
      await enqueue(diff('step', event.checkpoint()));
    else if (event.type === 'suspend') await enqueue(diff('suspend', event.continuation), event.continuation);
    else await enqueue({ type: 'end', status: 'completed', output: toJson(event.output) });
  };
}

/**
 * Rebuild a run from its log: where it stands, the continuation of its last recorded step (valid
 * for `parseContinuation` and `resume`), and how to pick it up if it is still running.
 *
 * @example
 * ```ts
 * const replay = replayCheckpoints(await log.read(runId));
 * if (replay.next?.kind === 'resume') await agent.resume(replay.next.continuation, replay.next.decisions);
 * ```
 */
export function replayCheckpoints(entries: readonly CheckpointEntry[]): CheckpointReplay {
  const first = entries[0];
  if (first?.type !== 'start') throw inconsistent('?', 'it does not begin with a start entry');
  const { runId, agentName } = first;
  let state: Continuation | undefined;
  let segment: CheckpointStart = first;
  let stepsInSegment = 0;
  let status: RunRecord['status'] = 'running';
  let output: JsonValue | undefined;
  let seq = 0;
  for (const entry of entries) {
    seq += 1;
    if (entry.type === 'start') {
      if (entry.from) state = structuredClone(entry.from);
      else if (entry.fromId !== undefined) {
        if (status !== 'suspended' || state?.id !== entry.fromId)
          throw inconsistent(runId, `it resumes "${entry.fromId}", which is not its last suspension`);
      } else state = initialState(entry);
      segment = entry;
      stepsInSegment = 0;
      status = 'running';
    } else if (entry.type === 'end') {
      status = entry.status;
      if (entry.output !== undefined) output = entry.output;
    } else {
      if (!state || status !== 'running')
        throw inconsistent(runId, `entry ${seq} follows the end of a segment`);
      apply(state, entry);
      stepsInSegment += 1;
      state.id = entry.suspension?.id ?? `${runId}@${seq}`;
      state.suspendedBy = entry.suspension?.suspendedBy ?? { type: 'checkpoint' };
      if (entry.suspension) {
        state.createdAt = entry.suspension.createdAt;
        status = 'suspended';
      } else state.createdAt = segment.at;
    }
  }
  const replay: CheckpointReplay = { runId, agentName, status, entries: entries.length };
  const last = state?.messages[state.messages.length - 1];
  if (
    status === 'running' &&
    stepsInSegment > 0 &&
    last?.role === 'assistant' &&
    toolCallsOf(last).length === 0
  ) {
    // The final answer was recorded but not the end: the run completed.
    replay.status = 'completed';
    output = textOf(last);
  }
  if (state && (stepsInSegment > 0 || segment.fromId !== undefined || segment.from)) {
    replay.continuation = parseContinuation(state);
  }
  if (output !== undefined) replay.output = output;
  if (replay.status !== 'running') return replay;
  if (stepsInSegment > 0) replay.next = { kind: 'resume', continuation: replay.continuation!, decisions: {} };
  else if (segment.input)
    replay.next = { kind: 'run', input: segment.input, metadata: segment.metadata ?? {} };
  else
    replay.next = { kind: 'resume', continuation: replay.continuation!, decisions: segment.decisions ?? {} };
  return replay;
}

function apply(state: Continuation, entry: CheckpointStep): void {
  // A seal covers the continuation it came with, not the state after later steps.
  delete state.seal;
  state.step = entry.step;
  state.usage = entry.usage;
  if (entry.messages) state.messages.push(...entry.messages);
  if (entry.resetDone) state.done = [];
  if (entry.done) state.done.push(...entry.done);
  if (entry.pending) state.pending = entry.pending;
  if (entry.decisions) state.decisions.push(...entry.decisions);
  if (entry.agent) state.agent = entry.agent;
}

function initialState(start: CheckpointStart): Continuation {
  return newContinuation(
    {
      runId: start.runId,
      agent: { name: start.agentName, framework: 'core' },
      metadata: start.metadata ?? {},
      audit: [],
    },
    {
      messages: [...(start.input ?? [])],
      pending: [],
      done: [],
      step: 0,
      usage: emptyUsage(),
      suspendedBy: { type: 'checkpoint' },
    },
    { id: `${start.runId}@0`, createdAt: start.at },
  );
}

function tracked(base: CheckpointBase) {
  return {
    messages: base.messages.length,
    done: base.done.map((done) => done.toolCallId),
    pending: JSON.stringify(base.pending),
    decisions: base.decisions.length,
    agent: base.agent ? JSON.stringify(base.agent) : '',
  };
}

function inconsistent(runId: string, why: string): ContinuationError {
  return new ContinuationError(
    'INVALID_CONTINUATION',
    `The checkpoint log of run "${runId}" is inconsistent: ${why}.`,
  );
}

function toJson(value: unknown): JsonValue {
  const text = value === undefined ? undefined : JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}

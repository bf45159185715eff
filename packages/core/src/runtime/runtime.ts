/**
 * The runtime: the one object an app, a worker, the console and the CLI hold. It is given the
 * agents, the store, and optionally a checkpoint log, a seal, approval links, a deadline policy and
 * a notifier, and applies each of them on every path that starts, resumes, recovers or sweeps a run.
 */

import type { CheckpointLog } from '../durable/checkpoint';
import { runDurably } from '../durable/durable';
import { type RecoveredRun, type RecoverOptions, recover, recoverRun } from '../durable/recover';
import {
  type ResumeStoredOptions,
  resumeStored,
  type StoredDecisions,
  streamStored,
} from '../durable/resume-stored';
import type { RunOptions, RunResult } from '../engine/protocol';
import type { AgentStreamEvent } from '../engine/stream';
import { ContinuationError, isContinuationError } from '../errors';
import type { Continuation } from '../format/format';
import type { JsonObject } from '../format/json';
import type { Message } from '../format/messages';
import type { ApprovalLinks } from '../people/approval-links';
import type { DeadlinePolicy } from '../people/deadlines';
import {
  type NoticeAction,
  type NotifyOptions,
  notifySuspended,
  type OnSuspend,
  suspendNotice,
} from '../people/notify';
import { type SweepOptions, type SweepReport, sweepDeadlines } from '../people/sweep-deadlines';
import type { ContinuationStore, ListFilter, SaveOptions, StoredContinuation } from '../stores/store';
import type { SealConfig } from '../trust/seal';
import { type CancelledRun, type CancelOptions, cancelStored } from './cancel';
import { admitOnce } from './once';
import { outcomeOf, type RunOutcome } from './outcome';
import { type RuntimeAgent, type RuntimeStream, sealedAgent } from './seal';
import { streamLogged } from './stream';

/** What {@link createRuntime} is given. */
export interface RuntimeConfig {
  /** The agents it runs, by name (or a list, keyed by each agent's `name`). */
  agents: Readonly<Record<string, RuntimeAgent>> | readonly RuntimeAgent[];
  /** Where suspensions are saved, claimed and settled. */
  store: ContinuationStore;
  /**
   * A checkpoint log: every start and resume then records each step under a lease, a crash mid-run
   * is finished by {@link Runtime.recover}, and a continuation the log moved past is refused.
   */
  log?: CheckpointLog;
  /**
   * Seal every continuation the runtime's agents emit, and verify every one they resume (a stored
   * record included) before anything runs: an altered record fails with `SEAL_MISMATCH`. For agents
   * without a seal of their own.
   */
  seal?: SealConfig;
  /** Signed approve and reject links in every notice and inbox action (see `createApprovalLinks`). */
  links?: ApprovalLinks;
  /** Deadlines for the actions every run and resume suspends on, where their tool sets none. */
  deadlines?: DeadlinePolicy;
  /** Told of every suspension once it is saved (and of escalated deadlines, on a sweep). */
  notify?: OnSuspend;
  /** Who this runtime is (a worker id): claims and leases are taken in its name. A random id by default. */
  owner?: string;
  /** How suspensions are saved (e.g. `expiresAt`). */
  save?: SaveOptions;
}

/** Options of {@link Runtime.start}. */
export interface StartOptions extends Omit<RunOptions, 'deadlines'> {
  /** The user's JSON, kept with every continuation of the run and filterable in the inbox. */
  metadata?: JsonObject;
  /** With a log: how long the run's lease holds without a step (30 s by default). */
  leaseMs?: number;
  /** How this run's suspensions are saved, instead of the runtime's `save` (e.g. its own `expiresAt`). */
  save?: SaveOptions;
}

/** Options of {@link Runtime.resume} and {@link Runtime.stream}. */
export interface ResumeOptions
  extends Omit<ResumeStoredOptions, 'log' | 'onSuspend' | 'links' | 'deadlines' | 'owner'> {
  /**
   * The claim's owner for this one resume, instead of the runtime's: the deciding person in an
   * inbox, so that the store keeps who resumed the run (`resumedBy`) once it completes.
   */
  owner?: string;
}

/** One pending action in the inbox: the action (with its links when configured) and where it waits. */
export interface InboxItem {
  continuationId: string;
  runId: string;
  agent: string;
  metadata: JsonObject;
  createdAt: string;
  action: NoticeAction;
}

/** Options of {@link Runtime.recover}. */
export interface RuntimeRecoverOptions
  extends Pick<
    RecoverOptions,
    'limit' | 'maxAttempts' | 'leaseMs' | 'suspendWhen' | 'signal' | 'onEvent' | 'allowChangedAgent'
  > {
  /** Take over this one run instead of looking for all whose worker died. */
  runId?: string;
}

/** A page of {@link Runtime.inbox}. */
export interface InboxPage {
  items: InboxItem[];
  /** Present when there are more: pass it back as `cursor`. */
  cursor?: string;
}

/** One stored run as {@link Runtime.get} shows it: the record and its pending actions. */
export interface RunView extends StoredContinuation {
  actions: NoticeAction[];
}

/** The one object an app holds; see {@link createRuntime}. */
export interface Runtime {
  readonly store: ContinuationStore;
  readonly log: CheckpointLog | undefined;
  /** Who claims and leases in this runtime's name. */
  readonly owner: string;
  /** The agent named `name`, as the runtime runs it (sealed when a seal is configured). */
  agent(name: string): RuntimeAgent;
  /** Run agent `name` on `input`; a suspension is saved to the store (and notified). */
  start(name: string, input: string | Message[], options?: StartOptions): Promise<RunResult<unknown>>;
  /**
   * Resume stored continuation `id` under a claim, with `decisions` (or a function of the stored
   * continuation that makes them); the record is settled by the outcome. A second call for the same
   * id fails with `CLAIM_CONFLICT` and runs nothing.
   */
  resume(id: string, decisions?: StoredDecisions, options?: ResumeOptions): Promise<RunResult<unknown>>;
  /**
   * {@link Runtime.resume}, streamed: the stream's `result` settles once the record is settled. It
   * yields the agent's own events: `Event` names them (the core's `AgentStreamEvent`s by default;
   * a LangGraph agent's are its graph's chunks).
   */
  stream<Event = AgentStreamEvent<unknown>>(
    id: string,
    decisions?: StoredDecisions,
    options?: ResumeOptions,
  ): Promise<RuntimeStream<Event>>;
  /**
   * Resume a continuation that came back from outside the store (a chat that carries it), at most
   * once: it is verified with the runtime's `seal`, saved in the store if its id is new (a record
   * already there is kept, never replaced by what was sent), then resumed under the store's claim
   * as {@link Runtime.resume} does. A second use of it, from another tab or a replayed request,
   * fails with `CLAIM_CONFLICT` and runs nothing. `EXPIRED` past the deadline of its actions;
   * `SEAL_MISMATCH` or `NOT_FOUND` (no such agent) before anything is saved.
   * The guard keeps one record per continuation used (see `store.saveIfAbsent`): deleting one lets
   * its continuation be used again, so delete only those that can no longer be resumed (expired,
   * or sealed with a secret that was retired).
   *
   * @example
   * ```ts
   * const continuation = await continuationFromUIMessages(messages, { seal });
   * const result = await runtime.resumeOnce(continuation!, (stored) =>
   *   decisionsFromUIMessages(messages, listActions(stored)),
   * );
   * ```
   */
  resumeOnce(
    continuation: Continuation | string,
    decisions?: StoredDecisions,
    options?: ResumeOptions,
  ): Promise<RunResult<unknown>>;
  /** {@link Runtime.resumeOnce}, streamed as {@link Runtime.stream} is. */
  streamOnce<Event = AgentStreamEvent<unknown>>(
    continuation: Continuation | string,
    decisions?: StoredDecisions,
    options?: ResumeOptions,
  ): Promise<RuntimeStream<Event>>;
  /** Pending actions across suspended runs, oldest first; `filter` is the store's, with its cursor. */
  inbox(filter?: Omit<ListFilter, 'status'>): Promise<InboxPage>;
  /** One stored run and its pending actions; `undefined` when the store has no such id. */
  get(id: string): Promise<RunView | undefined>;
  /**
   * Whether a stored record waits: suspended, and its run has not moved past it (in the
   * checkpoint log, after a resume that died midway; or outside the library, as its agent's
   * `movedOn` tells). What the inbox, `get` and the console offer actions for.
   *
   * @example
   * ```ts
   * const stored = await runtime.store.load(id);
   * if (stored && (await runtime.waiting(stored))) showForm(stored);
   * ```
   */
  waiting(stored: StoredContinuation): Promise<boolean>;
  /**
   * What became of stored record `id` once it no longer waits: the decisions made on its actions
   * (who, when, the original and edited arguments), each decided call's result and, when the
   * runtime has a checkpoint log, the run's final answer; without a log they come from the run's
   * later continuation, and a run that completed leaves none. `undefined` when the store has no
   * such id. Give the stored record instead of its id when it is loaded already.
   *
   * @example
   * ```ts
   * const outcome = await runtime.outcome(id);
   * for (const entry of outcome?.decisions ?? []) console.log(entry.type, entry.toolName, entry.by);
   * if (outcome?.output !== undefined) console.log('answer:', outcome.output);
   * ```
   */
  outcome(record: string | StoredContinuation): Promise<RunOutcome | undefined>;
  /**
   * Go on with the runs the log knows whose worker died (needs a log); see `recover`. With `runId`,
   * take over that one run now (its lease must have lapsed, else `CLAIM_CONFLICT`), as a retried
   * job does; its suspension is saved and notified.
   */
  recover(options?: RuntimeRecoverOptions): Promise<RecoveredRun[]>;
  /**
   * End the whole run waiting at stored continuation `id`, from the inbox: every pending action is
   * rejected with `reason` (nothing runs, the model is not called), the record becomes `cancelled`
   * (`store.list({ status: 'cancelled' })`, with `resumedBy` and `reason`), and with a log the run
   * ends there. `CLAIM_CONFLICT` when it is being resumed, was decided, or the run moved past it.
   *
   * @example
   * ```ts
   * const cancelled = await runtime.cancel(id, { by: 'ann', reason: 'Duplicate request' });
   * console.log(cancelled.rejected.map((entry) => entry.toolName));
   * ```
   */
  cancel(id: string, options?: CancelOptions): Promise<CancelledRun>;
  /** Apply the deadline default to overdue actions (reject, or escalate by notifying again). */
  sweep(
    options?: Pick<SweepOptions, 'onDeadline' | 'reason' | 'now' | 'pageSize'> & { leaseMs?: number },
  ): Promise<SweepReport>;
}

/**
 * Make the runtime an app, a worker, the console and the CLI share.
 *
 * @example
 * ```ts
 * const runtime = createRuntime({ agents: [agent], store, log, notify: (notice) => chat.post(notice) });
 * const started = await runtime.start('payments', 'Pay the March invoices', { metadata: { team: 'ops' } });
 * const { items } = await runtime.inbox({ metadata: { team: 'ops' } });
 * await runtime.resume(items[0]!.continuationId, { [items[0]!.action.id]: { type: 'approve', by: 'ann' } });
 * ```
 */
export function createRuntime(config: RuntimeConfig): Runtime {
  const { store, log } = config;
  /**
   * A stored suspension the log has moved past (the run ended, or waits at a later suspension):
   * a dead worker's resume went on without the store, and recovery settles the record.
   */
  const movedPast = async (stored: StoredContinuation): Promise<boolean> => {
    const record = await log?.status(stored.runId);
    if (record?.status === 'completed' || record?.status === 'rejected') return true;
    if (record?.status === 'suspended' && record.suspensionId !== stored.id) return true;
    // Or the run went on outside the library (a LangGraph thread resumed natively).
    return (await agents[stored.continuation.agent.name]?.movedOn?.(stored.continuation)) === true;
  };
  const waiting = async (stored: StoredContinuation): Promise<boolean> =>
    stored.status === 'suspended' && !(await movedPast(stored));
  const owner = config.owner ?? crypto.randomUUID();
  const agents: Record<string, RuntimeAgent> = {};
  const given = Array.isArray(config.agents)
    ? (config.agents as readonly RuntimeAgent[]).map((agent) => [agent.name, agent] as const)
    : Object.entries(config.agents as Readonly<Record<string, RuntimeAgent>>);
  for (const [name, agent] of given) agents[name] = config.seal ? sealedAgent(agent, config.seal) : agent;
  const notice: NotifyOptions = {
    ...(config.notify ? { onSuspend: config.notify } : {}),
    ...(config.links ? { links: config.links } : {}),
  };
  const policy = config.deadlines ? { deadlines: config.deadlines } : {};
  const save = config.save ? { save: config.save } : {};
  // Deadline escalations already notified: one set for the runtime's life, so each is told once.
  const escalated = new Set<string>();

  const agent = (name: string): RuntimeAgent => {
    const found = agents[name];
    if (!found) {
      const known = Object.keys(agents).join(', ') || 'none';
      throw new ContinuationError(
        'NOT_FOUND',
        `No agent named "${name}" in this runtime (it has: ${known}).`,
      );
    }
    return found;
  };
  /** What a view lists: the continuation with what its agent's earlier releases kept only natively. */
  const current = (continuation: Continuation): Continuation =>
    agents[continuation.agent.name]?.upgrade?.(continuation) ?? continuation;
  const agentOf = async (id: string): Promise<RuntimeAgent> => {
    const stored = await store.load(id);
    if (!stored) throw new ContinuationError('NOT_FOUND', `No continuation "${id}" in the store.`);
    const running = agent(stored.continuation.agent.name);
    if (stored.status === 'suspended' && (await running.movedOn?.(stored.continuation))) {
      throw new ContinuationError(
        'STATE_MISMATCH',
        `The run of continuation "${id}" went on without it (its agent says so: a LangGraph thread resumed natively, say): nothing was resumed. Cancel the record to settle it.`,
        { details: { continuationId: id } },
      );
    }
    return running;
  };
  const resumeOptions = (options: ResumeOptions): ResumeStoredOptions => ({
    ...save,
    ...options,
    owner: options.owner ?? owner,
    ...policy,
    ...notice,
  });

  const admit = (continuation: Continuation | string, options: ResumeOptions) =>
    admitOnce(store, continuation, { seal: config.seal, save: options.save ?? config.save, agent });

  const runtime: Runtime = {
    store,
    log,
    owner,
    agent,
    async start(name, input, options = {}) {
      const running = agent(name);
      const { save: ownSave, ...runOptions } = options;
      if (!log && options.leaseMs !== undefined) {
        throw new ContinuationError(
          'INVALID_OPERATION',
          'leaseMs is the lease of a run in a checkpoint log: give the runtime a log, or leave it out.',
        );
      }
      const saveAs = ownSave ?? config.save;
      if (log) {
        const result = await runDurably(running, log, input, {
          ...runOptions,
          ...policy,
          ...(saveAs ? { save: saveAs } : {}),
          owner,
          store,
        });
        await notifySuspended(result, notice);
        return result;
      }
      let result: RunResult<unknown>;
      try {
        result = await running.run(input, { ...runOptions, ...policy });
      } catch (error) {
        // The run's last good state (a model failure): saved, so a resume retries from there.
        const last = isContinuationError(error)
          ? (error as { continuation?: Continuation }).continuation
          : undefined;
        if (last) await store.save(last, saveAs);
        throw error;
      }
      if (result.status === 'suspended') await store.save(result.continuation, saveAs);
      await notifySuspended(result, notice);
      return result;
    },
    async resume(id, decisions = {}, options = {}) {
      return resumeStored(store, await agentOf(id), id, decisions, {
        ...resumeOptions(options),
        ...(log ? { log } : {}),
      });
    },
    async stream<Event>(id: string, decisions: StoredDecisions = {}, options: ResumeOptions = {}) {
      const running = await agentOf(id);
      // The events are the agent's own, as its adapter streams them; the caller names their type.
      if (log) {
        const run = await streamLogged(store, running, log, id, decisions, resumeOptions(options));
        return run as RuntimeStream<Event>;
      }
      if (!running.stream) {
        throw new ContinuationError(
          'INVALID_OPERATION',
          `Agent "${running.name}" cannot stream: it has no stream().`,
        );
      }
      const streaming = running as Parameters<typeof streamStored>[1];
      const run = await streamStored(store, streaming, id, decisions, resumeOptions(options));
      return run as RuntimeStream<Event>;
    },
    async resumeOnce(continuation, decisions = {}, options = {}) {
      return runtime.resume(await admit(continuation, options), decisions, options);
    },
    async streamOnce<Event>(
      continuation: Continuation | string,
      decisions = {},
      options: ResumeOptions = {},
    ) {
      return runtime.stream<Event>(await admit(continuation, options), decisions, options);
    },
    async inbox(filter = {}) {
      const page = await store.list({ ...filter, status: 'suspended' });
      const items: InboxItem[] = [];
      for (const summary of page.items) {
        const stored = await store.load(summary.id);
        // Claimed or settled since it was listed, or a suspension its run has moved past.
        if (!stored || !(await waiting(stored))) continue;
        const { actions } = await suspendNotice(current(stored.continuation), notice);
        for (const action of actions) {
          const { id: continuationId, runId, agentName, metadata, createdAt } = stored;
          items.push({ continuationId, runId, agent: agentName, metadata, createdAt, action });
        }
      }
      return { items, ...(page.cursor === undefined ? {} : { cursor: page.cursor }) };
    },
    async get(id) {
      const stored = await store.load(id);
      if (!stored) return undefined;
      const { actions } = await suspendNotice(current(stored.continuation), notice);
      return { ...stored, actions: (await waiting(stored)) ? actions : [] };
    },
    waiting,
    async outcome(record) {
      const stored = typeof record === 'string' ? await store.load(record) : record;
      return stored ? outcomeOf(store, log, stored) : undefined;
    },
    async recover(options = {}) {
      if (!log) {
        throw new ContinuationError(
          'INVALID_OPERATION',
          'Recovery goes on from a checkpoint log: give the runtime a log.',
        );
      }
      const { runId, ...rest } = options;
      const durable = { ...rest, ...policy, ...save, owner, store };
      if (runId !== undefined) {
        const record = await log.status(runId);
        if (!record) throw new ContinuationError('NOT_FOUND', `No run "${runId}" in the checkpoint log.`);
        const running = agent(record.agentName);
        const result = await recoverRun(running, log, runId, durable);
        await notifySuspended(result, notice);
        return [{ runId, result }];
      }
      const recovered = await recover(log, agents, durable);
      for (const run of recovered) if (run.result) await notifySuspended(run.result, notice);
      return recovered;
    },
    cancel(id, options = {}) {
      return cancelStored(store, log, id, { ...options, owner });
    },
    sweep(options = {}) {
      const { leaseMs, ...sweep } = options;
      return sweepDeadlines({
        ...sweep,
        ...notice,
        store,
        agents,
        escalated,
        resume: {
          owner: 'deadline',
          ...policy,
          ...save,
          ...(log ? { log } : {}),
          ...(leaseMs === undefined ? {} : { leaseMs }),
        },
      });
    },
  };
  return runtime;
}

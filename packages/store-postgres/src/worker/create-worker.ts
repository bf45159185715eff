/**
 * Scale-out workers on pg-boss: each worker registers agent definitions by name and takes run and
 * resume jobs from the shared queues. Any worker can resume any continuation; the store's claim
 * makes exactly one do it, and its claim is renewed while the run goes. Jobs are idempotent: a job
 * for a continuation already resumed, failed, or claimed by a live worker, and a run job for a run
 * already under way or done, do nothing. With a checkpoint log, every step is recorded and runs
 * whose worker died are recovered by the others. On `stop()` (e.g. on SIGTERM) a worker takes no
 * more jobs, suspends its running agents at their next step boundary, saves them and enqueues their
 * resume.
 */
import {
  type ApprovalLinks,
  type CheckpointLog,
  type Claim,
  type ContinuableAgent,
  ContinuationError,
  type ContinuationStore,
  createRuntime,
  DEFAULT_RECOVERY_ATTEMPTS,
  type DeadlineAction,
  isContinuationError,
  type OnSuspend,
  onAbort,
  type RunResult,
  type Runtime,
} from '@agent-continuations/core';
import { keepClaim } from '@agent-continuations/core/store-kit';
import PgBoss from 'pg-boss';
import {
  createJobClient,
  createQueues,
  DEFAULT_JOB_EXPIRY_SECONDS,
  type JobClient,
  type QueueOptions,
  type ResumeJob,
  type RunJob,
} from './jobs';

/** What an agent definition gets from its worker. */
export interface AgentContext {
  /**
   * Aborts when the worker shuts down: give it to the core's `onAbort` predicate so the agent
   * suspends at its next step boundary.
   */
  shutdown: AbortSignal;
}

/** An agent, or a factory that builds it with the worker's shutdown signal. */
export type AgentDefinition =
  | ContinuableAgent<any, unknown>
  | ((context: AgentContext) => ContinuableAgent<any, unknown>);

/** Options of {@link createWorker}. */
export interface WorkerOptions extends QueueOptions {
  /**
   * Seconds a job may stay active before pg-boss hands it to another worker. With a checkpoint log
   * it is twice `leaseMs` by default (a second worker finds a live run's lease and does nothing, and
   * the jobs of a worker that died after fetching them come back that soon); without one,
   * {@link DEFAULT_JOB_EXPIRY_SECONDS} (1 h), above the longest healthy run.
   */
  expireInSeconds?: number;
  /**
   * The runtime the worker runs jobs with (its store, log, seal, links, deadlines, notices and
   * owner), shared with the app and the console. Its agents get the worker's shutdown as an
   * `onAbort` predicate on every run. Instead of `store`, `agents`, `checkpoints`, `onSuspend`,
   * `links` and `id`, which build one.
   */
  runtime?: Runtime;
  /** Where continuations are saved (without `runtime`). */
  store?: ContinuationStore;
  /** Agent definitions by name; jobs name the agent they run (without `runtime`). */
  agents?: Readonly<Record<string, AgentDefinition>>;
  /** A started pg-boss instance (not stopped by the worker), or a connection string to start one. */
  boss?: PgBoss;
  connectionString?: string;
  /** pg-boss constructor options when the worker starts its own instance. */
  bossOptions?: Omit<PgBoss.ConstructorOptions, 'connectionString'>;
  /** Record every step here, and recover runs whose worker died. */
  checkpoints?: CheckpointLog;
  /** This worker's id, recorded on claims and leases (a given runtime's `owner` instead). */
  id?: string;
  /** Jobs fetched at once and run concurrently; 20 by default. */
  batchSize?: number;
  /** Seconds between queue polls; 1 by default (pg-boss allows 0.5 at least). */
  pollingIntervalSeconds?: number;
  /**
   * Leases on runs (in the checkpoint log) and claims on continuations (in the store), renewed every
   * third of it while a run goes; a worker that dies loses them after this long, and the others
   * recover its runs. 30 s by default; at most half of `expireInSeconds`.
   */
  leaseMs?: number;
  /** How often to look for runs whose worker died; 1 s by default. */
  recoverIntervalMs?: number;
  /**
   * Recovery attempts of a run before it is marked `failed` (see `recover` in the core);
   * {@link DEFAULT_RECOVERY_ATTEMPTS} (3) by default. Failed runs are listed by
   * `store.list({ status: 'failed' })`; `store.retry(id)` and `submitDecisions(id, {})` retry one.
   */
  maxAttempts?: number;
  /** Called with every run's outcome, e.g. for metrics. */
  onResult?: (result: RunResult<unknown>) => void;
  /**
   * Told of each run that suspends waiting for people (after it is saved), with approval links
   * when `links` is given, e.g. `createWebhookNotifier(...)`. It runs beside the job, which does
   * not wait for it; its errors go to `onError`.
   */
  onSuspend?: OnSuspend;
  /** Sign approve and reject links into the notices of `onSuspend`. */
  links?: ApprovalLinks;
  /**
   * Sweep for actions past their deadline (see `sweepDeadlines` in the core) every `intervalMs`
   * (60 s by default) and apply `onDeadline`: `reject` (by default) or `escalate` (notify again
   * through `onSuspend`, once per action per worker). Every worker may sweep: claims keep each
   * decision to one of them.
   */
  deadlines?: {
    intervalMs?: number;
    onDeadline?: DeadlineAction;
    /** The rejection reason the model reads. */
    reason?: string;
  };
  /**
   * Migrate the store and the log (when they have a `migrate()`, as the Postgres ones do) before
   * taking jobs; `true` by default. A current schema is checked without taking any lock; a
   * migration that cannot get its lock in time fails `start()` with `STORE_UNAVAILABLE`.
   */
  migrate?: boolean;
  /** Called with errors the worker survives (a failed job is retried by pg-boss). */
  onError?: (error: unknown) => void;
}

/** A running worker. */
export interface Worker extends JobClient {
  readonly id: string;
  /** Aborts when {@link Worker.stop} begins. */
  readonly shutdown: AbortSignal;
  /** Start taking jobs. */
  start(): Promise<void>;
  /** Stop taking jobs, let running agents suspend at their next step, save them, enqueue their resume. */
  stop(): Promise<void>;
}

/**
 * Create a worker. Call `start()`, and `stop()` on SIGTERM.
 *
 * @example
 * ```ts
 * const runtime = createRuntime({
 *   agents: [paymentsAgent],
 *   store: createPostgresStore({ connectionString }),
 *   log: createPostgresCheckpointLog({ connectionString }),
 * });
 * const worker = createWorker({ runtime, connectionString });
 * await worker.start();
 * process.once('SIGTERM', () => worker.stop().then(() => process.exit(0)));
 * const runId = await worker.submitRun('payments', 'Pay the March invoices');
 * ```
 */
export function createWorker(options: WorkerOptions): Worker {
  if (!options.boss && !options.connectionString) {
    throw new Error('createWorker needs a pg-boss instance (boss) or a connection string.');
  }
  const id = options.runtime?.owner ?? options.id ?? `worker-${crypto.randomUUID()}`;
  const shutdown = new AbortController();
  const leaseMs = options.leaseMs ?? 30_000;
  const logged = options.runtime ? options.runtime.log !== undefined : options.checkpoints !== undefined;
  // With a log, a job handed to a second worker finds its run's lease alive and does nothing, so
  // the job of a worker that died after fetching it may come back after twice the lease.
  const expireInSeconds =
    options.expireInSeconds ?? (logged ? Math.ceil((2 * leaseMs) / 1000) : DEFAULT_JOB_EXPIRY_SECONDS);
  const queueOptions: QueueOptions =
    options.expireInSeconds === undefined && !logged ? options : { ...options, expireInSeconds };
  if (expireInSeconds * 1000 < 2 * leaseMs) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `expireInSeconds (${expireInSeconds}) must be at least twice leaseMs (${leaseMs} ms): pg-boss would hand a healthy run's job to another worker.`,
    );
  }
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  };
  const runtime = options.runtime ?? ownRuntime(options, id, shutdown.signal, track);
  const { store, log } = runtime;
  // A given runtime's agents suspend at their next step once the worker shuts down.
  const stopping = options.runtime ? { suspendWhen: [onAbort(shutdown.signal)] } : {};
  const ownBoss = !options.boss;
  const boss =
    options.boss ??
    new PgBoss({
      connectionString: options.connectionString!,
      // Expired jobs are handed back by pg-boss's maintenance: as often as they may expire.
      maintenanceIntervalSeconds: Math.max(1, Math.min(120, Math.ceil(expireInSeconds / 2))),
      ...options.bossOptions,
    });
  let client: JobClient | undefined;
  const loops: Array<() => void> = [];
  let started: Promise<void> | undefined;
  const durable = { leaseMs, ...stopping };
  /**
   * Run `work` every `ms` after the previous round ended, never two rounds at once (a round stuck
   * on the database does not pile up more behind it). Returns the function that stops it.
   */
  const every = (ms: number, work: () => Promise<void>) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const round = async () => {
      await track(work()).catch((error) => options.onError?.(error));
      if (!stopped) timer = setTimeout(round, ms);
    };
    timer = setTimeout(round, ms);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  };

  /** Bring the store's and the log's schema up to date (each checks its version first, locking nothing). */
  const migrateAll = async () => {
    for (const part of [store, log] as Array<{ migrate?: () => Promise<void> } | undefined>) {
      if (typeof part?.migrate === 'function') await part.migrate();
    }
  };

  /**
   * After the runtime saved (and notified) a suspension: one suspended by a predicate (a shutdown)
   * is handed to another worker at once.
   */
  const settle = async (result: RunResult<unknown>) => {
    if (result.status === 'suspended' && result.continuation.suspendedBy.type === 'predicate')
      await client!.submitDecisions(result.continuation.id, {});
    options.onResult?.(result);
  };

  const sweepOverdue = async () => {
    if (shutdown.signal.aborted) return;
    const report = await runtime.sweep({
      leaseMs,
      ...(options.deadlines?.onDeadline ? { onDeadline: options.deadlines.onDeadline } : {}),
      ...(options.deadlines?.reason ? { reason: options.deadlines.reason } : {}),
    });
    for (const { error } of report.failed) options.onError?.(error);
  };

  const runJob = async (job: RunJob) => {
    runtime.agent(job.agentName); // An unknown agent fails the job before anything runs.
    if (!log) return runWithoutLog(job);
    const record = await log.status(job.runId);
    // A retried or duplicate job whose run already went on (suspended, finished or failed).
    if (record && record.status !== 'running') return;
    let result: RunResult<unknown>;
    try {
      result = record
        ? (await runtime.recover({ ...durable, runId: job.runId }))[0]!.result!
        : await runtime.start(job.agentName, job.input, {
            ...durable,
            runId: job.runId,
            metadata: job.metadata,
          });
    } catch (error) {
      // Running on a live worker (its lease holds), or just taken by another: nothing to do here;
      // if that worker dies, the recovery sweep picks the run up.
      if (isContinuationError(error, 'CLAIM_CONFLICT') || isContinuationError(error, 'LEASE_LOST')) return;
      throw error;
    }
    return settle(result);
  };

  /**
   * Without a log, a run job runs once: a job whose run left anything in the store is a duplicate,
   * and a failure is not retried by pg-boss (tools may have run). A failure that carries the last
   * good state saves it, resumable with `submitDecisions(id, {})`.
   */
  const runWithoutLog = async (job: RunJob) => {
    if ((await store.list({ runId: job.runId, limit: 1 })).items.length > 0) return;
    let result: RunResult<unknown>;
    try {
      // The runtime saves a failure's last good state, resumable with `submitDecisions(id, {})`.
      result = await runtime.start(job.agentName, job.input, {
        ...stopping,
        runId: job.runId,
        metadata: job.metadata,
      });
    } catch (error) {
      options.onError?.(error);
      return;
    }
    return settle(result);
  };

  /** Codes of a claim that a duplicate or retried job meets: resumed, failed, or held by a live worker. */
  const duplicate = (error: unknown) =>
    isContinuationError(error, 'CLAIM_CONFLICT') ||
    isContinuationError(error, 'NOT_RESUMABLE') ||
    isContinuationError(error, 'LEASE_LOST');

  /**
   * The hand-off's claim, kept (never shortened: should this worker die before its run begins, the
   * record still reads as being resumed until the job comes back), or undefined when it is no
   * longer held.
   */
  const reserved = async (claim: Claim) => {
    try {
      return await keepClaim(store, claim, leaseMs);
    } catch (error) {
      // It lapsed and another took it, or an earlier attempt of this job settled or gave it back.
      if (isContinuationError(error, 'LEASE_LOST')) return undefined;
      throw error;
    }
  };

  const resumeJob = async (job: ResumeJob) => {
    const found = await store.load(job.continuationId);
    if (!found || found.status === 'expired') {
      // Deleted, or its actions expired: retrying never helps.
      options.onError?.(
        new ContinuationError(
          found ? 'EXPIRED' : 'NOT_FOUND',
          `Resume job for "${job.continuationId}" dropped: ${found ? 'it expired' : 'it is not in the store'}.`,
        ),
      );
      return;
    }
    // The hand-off's own claim, still held: the resume goes on under it, so that the record never
    // reads as waiting between the hand-off and the run.
    const claim = job.reservation ? await reserved(job.reservation) : undefined;
    if (!claim) {
      if (found.status === 'claimed' && log && !(await begun(found.id, found.runId))) {
        // Claimed by a worker that has not begun its run (it may have died right after claiming):
        // retry later; the claim lapses if it died, and a live one will have begun by then.
        throw new ContinuationError('CLAIM_CONFLICT', `"${found.id}" is claimed; its run has not begun yet.`);
      }
      // Resumed, failed, or claimed by a live worker (with a log: its run is under way, and the
      // recovery sweep finishes it if that worker dies).
      if (found.status !== 'suspended') return;
    }
    let result: RunResult<unknown>;
    try {
      // One stored resume: the claim held and renewed, the steps recorded in the log (when there is
      // one), a continuation the log moved past refused and its record settled.
      result = await runtime.resume(job.continuationId, job.decisions, {
        ...durable,
        ...(claim ? { claim } : {}),
      });
    } catch (error) {
      if (duplicate(error)) {
        // With a log, the run may have moved on in an earlier attempt whose suspension resumeStored
        // just saved in its place: hand a predicate suspension on, as settle() does.
        if (log) await handOnSaved(found.runId);
        return;
      }
      // Nothing ran and the claim went back (the store was unreachable, say): retry the job later.
      if (
        (!isContinuationError(error) || isContinuationError(error, 'STORE_UNAVAILABLE')) &&
        (await store.load(job.continuationId))?.status === 'suspended'
      )
        throw error;
      // Otherwise the record is settled (bad decisions, the last good state saved, marked failed),
      // or, with a log, the run is the log's: the recovery sweep goes on from its last step and
      // settles the record. A retry could do nothing good.
      options.onError?.(error);
      return;
    }
    await settle(result);
  };

  /** The run's last suspension, saved from the log by resumeStored: enqueue it when a predicate made it. */
  const handOnSaved = async (runId: string) => {
    const record = await log!.status(runId);
    if (record?.status !== 'suspended' || !record.suspensionId) return;
    const saved = await store.load(record.suspensionId);
    if (saved?.status === 'suspended' && saved.continuation.suspendedBy.type === 'predicate')
      await client!.submitDecisions(saved.id, {});
  };

  /** Whether the log shows the resume of continuation `id` under way (or done). */
  const begun = async (continuationId: string, runId: string) => {
    const record = await log!.status(runId);
    return record !== undefined && (record.status === 'running' || record.suspensionId !== continuationId);
  };

  const sweep = async () => {
    if (!log || shutdown.signal.aborted) return;
    // recover() saves what the log suspended and completes the stored continuation each recovered
    // run resumed (through the claim its dead worker held), so nothing shows as waiting again.
    const recovered = await runtime.recover({
      ...durable,
      maxAttempts: options.maxAttempts ?? DEFAULT_RECOVERY_ATTEMPTS,
    });
    for (const run of recovered) {
      if (!run.result) {
        options.onError?.(run.error);
        continue;
      }
      await settle(run.result);
    }
  };

  /**
   * Take jobs of queue `name` until the worker stops: fetch a batch, run its jobs concurrently,
   * then complete or fail each one by itself (every handler above is safe to run again). A call to
   * the queue that fails (the database is down) is reported and the loop goes on, so that no
   * error escapes unawaited; a job it could not settle comes back after its expiry.
   */
  const take = async <T extends object>(name: string, handle: (job: T) => Promise<unknown>) => {
    const batchSize = options.batchSize ?? 20;
    const idleMs = (options.pollingIntervalSeconds ?? 1) * 1000;
    while (!shutdown.signal.aborted) {
      let jobs: PgBoss.Job<T>[] = [];
      try {
        jobs = (await boss.fetch<T>(name, { batchSize })) ?? [];
      } catch (error) {
        options.onError?.(error);
      }
      if (jobs.length === 0) {
        await pause(idleMs, shutdown.signal);
        continue;
      }
      await track(
        Promise.all(
          jobs.map(async (job) => {
            try {
              await handle(job.data);
              await boss.complete(name, job.id);
            } catch (error) {
              await boss.fail(name, job.id, failure(error)).catch((settling: unknown) => {
                options.onError?.(settling);
              });
            }
          }),
        ),
      ).catch((error: unknown) => options.onError?.(error));
    }
  };
  const taking: Promise<void>[] = [];

  return {
    id,
    shutdown: shutdown.signal,
    async start() {
      started ??= (async () => {
        if (ownBoss) {
          boss.on('error', (error) => options.onError?.(error));
          await boss.start();
        }
        if (options.migrate !== false) await migrateAll();
        const names = await createQueues(boss, queueOptions);
        client = await createJobClient(boss, { ...queueOptions, store });
        taking.push(take<RunJob>(names.run, runJob), take<ResumeJob>(names.resume, resumeJob));
        if (log) loops.push(every(options.recoverIntervalMs ?? 1000, sweep));
        if (options.deadlines) loops.push(every(options.deadlines.intervalMs ?? 60_000, sweepOverdue));
      })();
      await started;
    },
    async stop() {
      // Agents suspend at their next step boundary; their handlers save them and enqueue the resume.
      shutdown.abort();
      for (const stopLoop of loops.splice(0)) stopLoop();
      await Promise.all(taking.splice(0));
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      if (ownBoss) await boss.stop({ graceful: true, wait: true, timeout: 5_000 });
    },
    async submitRun(agentName, input, runOptions) {
      await this.start();
      return client!.submitRun(agentName, input, runOptions);
    },
    async submitDecisions(continuationId, decisions) {
      await this.start();
      return client!.submitDecisions(continuationId, decisions);
    },
  };
}

/**
 * The runtime a worker builds from its own options: agents built with its shutdown signal, and
 * notices sent beside the job, not in its way (a slow receiver holds up no run; `stop()` waits for
 * them), whose failure goes to `onError` (the run is saved; a retried job would not notify).
 */
function ownRuntime(
  options: WorkerOptions,
  id: string,
  shutdown: AbortSignal,
  track: (work: Promise<unknown>) => Promise<unknown>,
): Runtime {
  if (!options.store || !options.agents) {
    throw new ContinuationError('INVALID_OPERATION', 'createWorker needs a runtime, or a store and agents.');
  }
  const agents: Record<string, ContinuableAgent<any, unknown>> = {};
  for (const [name, definition] of Object.entries(options.agents)) {
    agents[name] = typeof definition === 'function' ? definition({ shutdown }) : definition;
  }
  const { onSuspend } = options;
  return createRuntime({
    agents,
    store: options.store,
    owner: id,
    ...(options.checkpoints ? { log: options.checkpoints } : {}),
    ...(options.links ? { links: options.links } : {}),
    ...(onSuspend
      ? {
          notify: (notice) => {
            void track(
              (async () => {
                try {
                  await onSuspend(notice);
                } catch (error) {
                  options.onError?.(error);
                }
              })(),
            );
          },
        }
      : {}),
  });
}

/** Wait `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** What a failed job records in pg-boss: the error's message and code. */
function failure(error: unknown): object {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code } = error as { code?: unknown };
  return { message: error.message, ...(typeof code === 'string' ? { code } : {}) };
}

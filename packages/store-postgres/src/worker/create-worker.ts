/**
 * Scale-out workers on pg-boss: each worker registers agent definitions by name and takes run and
 * resume jobs from the shared queues. Any worker can resume any continuation; the store's claim
 * makes exactly one do it. With a checkpoint log, every step is recorded and runs whose worker
 * died are recovered by the others. On `stop()` (e.g. on SIGTERM) a worker takes no more jobs,
 * suspends its running agents at their next step boundary, saves them and enqueues their resume.
 */
import {
  type CheckpointLog,
  type ContinuableAgent,
  type Continuation,
  type ContinuationStore,
  type Decisions,
  isContinuationError,
  type RunResult,
  recover,
  recoverRun,
  resumeDurably,
  runDurably,
} from '@agent-continuations/core';
import PgBoss from 'pg-boss';
import {
  createJobClient,
  createQueues,
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
  store: ContinuationStore;
  /** Agent definitions by name; jobs name the agent they run. */
  agents: Readonly<Record<string, AgentDefinition>>;
  /** A started pg-boss instance (not stopped by the worker), or a connection string to start one. */
  boss?: PgBoss;
  connectionString?: string;
  /** pg-boss constructor options when the worker starts its own instance. */
  bossOptions?: Omit<PgBoss.ConstructorOptions, 'connectionString'>;
  /** Record every step here, and recover runs whose worker died. */
  checkpoints?: CheckpointLog;
  /** This worker's id, recorded on claims and leases. */
  id?: string;
  /** Jobs fetched at once and run concurrently; 20 by default. */
  batchSize?: number;
  /** Seconds between queue polls; 1 by default (pg-boss allows 0.5 at least). */
  pollingIntervalSeconds?: number;
  /** Leases on runs and claims on continuations; renewed while a run goes. 30 s by default. */
  leaseMs?: number;
  /** How often to look for runs whose worker died; 1 s by default. */
  recoverIntervalMs?: number;
  /** Called with every run's outcome, e.g. for metrics. */
  onResult?: (result: RunResult<unknown>) => void;
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
 * const worker = createWorker({
 *   store: createPostgresStore({ connectionString }),
 *   checkpoints: createPostgresCheckpointLog({ connectionString }),
 *   connectionString,
 *   agents: { payments: ({ shutdown }) => paymentsAgent({ suspendWhen: [onAbort(shutdown)] }) },
 * });
 * await worker.start();
 * process.once('SIGTERM', () => worker.stop().then(() => process.exit(0)));
 * const runId = await worker.submitRun('payments', 'Pay the March invoices');
 * ```
 */
export function createWorker(options: WorkerOptions): Worker {
  if (!options.boss && !options.connectionString) {
    throw new Error('createWorker needs a pg-boss instance (boss) or a connection string.');
  }
  const id = options.id ?? `worker-${crypto.randomUUID()}`;
  const shutdown = new AbortController();
  const leaseMs = options.leaseMs ?? 30_000;
  const { store, checkpoints: log } = options;
  const agents: Record<string, ContinuableAgent<unknown, unknown>> = {};
  for (const [name, definition] of Object.entries(options.agents)) {
    agents[name] = typeof definition === 'function' ? definition({ shutdown: shutdown.signal }) : definition;
  }
  const ownBoss = !options.boss;
  const boss =
    options.boss ?? new PgBoss({ connectionString: options.connectionString!, ...options.bossOptions });
  const inFlight = new Set<Promise<unknown>>();
  let client: JobClient | undefined;
  let recovering: ReturnType<typeof setInterval> | undefined;
  let started: Promise<void> | undefined;
  const durable = { owner: id, leaseMs };

  const agentNamed = (name: string) => {
    const agent = agents[name];
    if (!agent) throw new Error(`Worker ${id} has no agent "${name}".`);
    return agent;
  };
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  };

  /** Save a suspension; one suspended by a predicate (a shutdown) is handed to another worker at once. */
  const settle = async (result: RunResult<unknown>, saved = false) => {
    if (result.status === 'suspended') {
      if (!saved) await store.save(result.continuation);
      if (result.continuation.suspendedBy.type === 'predicate')
        await client!.submitDecisions(result.continuation.id, {});
    }
    options.onResult?.(result);
  };

  const runJob = async (job: RunJob) => {
    const agent = agentNamed(job.agentName);
    if (!log) return settle(await agent.run(job.input, { runId: job.runId, metadata: job.metadata }));
    const record = await log.status(job.runId);
    if (record && record.status !== 'running') return; // A retried job whose run already went on.
    const result = record
      ? await recoverRun(agent, log, job.runId, durable)
      : await runDurably(agent, log, job.input, { ...durable, runId: job.runId, metadata: job.metadata });
    return settle(result);
  };

  const resumeJob = async (job: ResumeJob) => {
    let claim: Awaited<ReturnType<ContinuationStore['claim']>>;
    try {
      claim = await store.claim(job.continuationId, { owner: id, leaseMs });
    } catch (error) {
      // Resumed already (a duplicate or retried job): nothing to do. Claimed elsewhere: retry later.
      if (
        isContinuationError(error, 'CLAIM_CONFLICT') &&
        (await store.load(job.continuationId))?.status === 'completed'
      )
        return;
      throw error;
    }
    const stored = (await store.load(job.continuationId))!;
    const agent = agentNamed(stored.agentName);
    try {
      await agent.checkDecisions?.(stored.continuation, job.decisions);
    } catch (error) {
      await store.release(claim);
      // Bad decisions never become good by retrying: report them and drop the job.
      options.onError?.(error);
      return;
    }
    let result: RunResult<unknown> | undefined;
    try {
      result = await resumeWith(agent, stored.continuation, job.decisions);
    } catch (error) {
      // With a log, a retry picks up from the last checkpoint, so the claim can go back; without
      // one, tools may have run, so the continuation must never be resumed again.
      await (log ? store.release(claim) : store.complete(claim));
      throw error;
    }
    if (result) await settle(result);
    await store.complete(claim);
  };

  const resumeWith = async (
    agent: ContinuableAgent<unknown, unknown>,
    continuation: Continuation,
    decisions: Decisions,
  ): Promise<RunResult<unknown> | undefined> => {
    if (!log) return agent.resume(continuation, decisions);
    const record = await log.status(continuation.runId);
    // The log moved past this continuation: it was resumed by an earlier attempt of this job.
    if (record && record.status !== 'running' && record.suspensionId !== continuation.id) return undefined;
    if (record?.status === 'running') return recoverRun(agent, log, continuation.runId, durable);
    return resumeDurably(agent, log, continuation, decisions, durable);
  };

  const sweep = async () => {
    if (!log || shutdown.signal.aborted) return;
    const recovered = await recover(log, agents, { ...durable, store });
    for (const run of recovered) {
      if (!run.result) {
        options.onError?.(run.error);
        continue;
      }
      await settle(run.result, true);
      await retireResumed(run.runId);
    }
  };

  /**
   * A recovered run may have begun as the resume of a stored continuation whose claim died with
   * its worker: mark that continuation resumed, so it does not show as waiting again. When its
   * claim has not expired yet, the dead worker's job, retried by pg-boss, does it instead.
   */
  const retireResumed = async (runId: string) => {
    const entries = await log!.read(runId);
    const start = [...entries].reverse().find((entry) => entry.type === 'start');
    const resumedId = start?.type === 'start' ? (start.fromId ?? start.from?.id) : undefined;
    if (!resumedId) return;
    try {
      await store.complete(await store.claim(resumedId, { owner: id, leaseMs }));
    } catch (error) {
      if (!isContinuationError(error)) throw error;
    }
  };

  const batch =
    <T>(handle: (job: T) => Promise<unknown>) =>
    async (jobs: PgBoss.Job<T>[]) => {
      const outcomes = await track(Promise.allSettled(jobs.map((job) => handle(job.data))));
      const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
      // pg-boss retries the whole batch; every handler above is safe to run again.
      if (failed.length > 0) throw (failed[0] as PromiseRejectedResult).reason;
    };

  return {
    id,
    shutdown: shutdown.signal,
    async start() {
      started ??= (async () => {
        if (ownBoss) {
          boss.on('error', (error) => options.onError?.(error));
          await boss.start();
        }
        const names = await createQueues(boss, options);
        client = await createJobClient(boss, options);
        const work = {
          batchSize: options.batchSize ?? 20,
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
        };
        await boss.work<RunJob>(names.run, work, batch(runJob));
        await boss.work<ResumeJob>(names.resume, work, batch(resumeJob));
        if (log) {
          recovering = setInterval(
            () => void track(sweep()).catch((error) => options.onError?.(error)),
            options.recoverIntervalMs ?? 1000,
          );
        }
      })();
      await started;
    },
    async stop() {
      // Agents suspend at their next step boundary; their handlers save them and enqueue the resume.
      shutdown.abort();
      if (recovering) clearInterval(recovering);
      const names = await createQueues(boss, options);
      await boss.offWork(names.run);
      await boss.offWork(names.resume);
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

/**
 * The jobs workers exchange through pg-boss, and the client that enqueues them. Jobs carry only
 * ids, input and decisions; continuations stay in the store.
 */
import type { Claim, ContinuationStore, Decisions, JsonObject, Message } from '@agent-continuations/core';
import type PgBoss from 'pg-boss';

/** Start a new run of a registered agent. */
export interface RunJob {
  runId: string;
  agentName: string;
  input: string | Message[];
  metadata: JsonObject;
}

/** Resume a stored continuation with decisions (none for one suspended by a predicate). */
export interface ResumeJob {
  continuationId: string;
  decisions: Decisions;
  /**
   * The claim a client that knows the store took when it enqueued the job, so that until a worker
   * begins, the record reads as being resumed, not as waiting; the worker resumes under it.
   */
  reservation?: Claim;
}

/** Queue names under a prefix. */
export function queueNames(prefix: string): { run: string; resume: string } {
  return { run: `${prefix}.run`, resume: `${prefix}.resume` };
}

/**
 * A job's expiry by default without a checkpoint log: one hour, above the longest healthy run, so
 * that a slow run's job is never handed to a second worker (a run job without a log could run
 * twice). A worker with a log uses twice its lease instead (see `WorkerOptions.expireInSeconds`):
 * there a second worker finds the run's lease or claim alive and does nothing, and the jobs of a
 * worker that died after fetching them, before it began them, come back that soon.
 */
export const DEFAULT_JOB_EXPIRY_SECONDS = 60 * 60;

/** Options of the queues: retried a few times, a second apart, when a job fails. */
export interface QueueOptions {
  prefix?: string;
  /**
   * Seconds a job may stay active before pg-boss fails it and hands it to another worker;
   * {@link DEFAULT_JOB_EXPIRY_SECONDS} (1 h) by default. Keep it above the longest healthy run (and
   * at least twice the worker's `leaseMs`): dead workers are detected by their lease, not by this.
   * When given, existing queues are updated to it (and to the given retry settings).
   */
  expireInSeconds?: number;
  /** Retries of a failed or expired job; 30 by default. */
  retryLimit?: number;
  /** Seconds between retries; 1 by default. */
  retryDelay?: number;
}

/** Create both queues, or update their settings (idempotent). */
export async function createQueues(
  boss: PgBoss,
  options: QueueOptions = {},
): Promise<{ run: string; resume: string }> {
  const names = queueNames(options.prefix ?? 'agent-continuations');
  const settings = {
    expireInSeconds: options.expireInSeconds ?? DEFAULT_JOB_EXPIRY_SECONDS,
    retryLimit: options.retryLimit ?? 30,
    retryDelay: options.retryDelay ?? 1,
  };
  // Only settings given explicitly change an existing queue: a client opened with defaults (say, a
  // web server that submits decisions) leaves the workers' settings alone.
  const given = Object.fromEntries(
    (['expireInSeconds', 'retryLimit', 'retryDelay'] as const)
      .filter((key) => options[key] !== undefined)
      .map((key) => [key, settings[key]]),
  );
  for (const name of [names.run, names.resume]) {
    const queue = await boss.getQueue(name);
    // Concurrent creation by several workers can race inside pg-boss; the queue exists either way.
    if (!queue) await boss.createQueue(name, { name, ...settings }).catch(() => undefined);
    else if (Object.entries(given).some(([key, value]) => queue[key as keyof typeof queue] !== value))
      await boss.updateQueue(name, { name, ...given });
  }
  return names;
}

/** Enqueues runs and decisions; any worker registered for the agent takes them. */
export interface JobClient {
  /**
   * Enqueue a new run; returns its run id.
   *
   * @example
   * ```ts
   * const runId = await client.submitRun('payments', 'Pay the March invoices', { metadata: { tenant: 'acme' } });
   * ```
   */
  submitRun(
    agentName: string,
    input: string | Message[],
    options?: { metadata?: JsonObject; runId?: string },
  ): Promise<string>;
  /**
   * Enqueue the resume of a stored continuation with decisions. A worker claims it in the store,
   * so the continuation is resumed once even if it is submitted twice. A client given the
   * `store` claims the record first (see {@link JobClientOptions.store}): a record decided
   * already, expired or missing is refused here (`CLAIM_CONFLICT`, `EXPIRED`, `NOT_FOUND`), and
   * nothing is enqueued.
   *
   * @example
   * ```ts
   * await client.submitDecisions(continuation.id, { [action.id]: { type: 'approve', by: 'ann' } });
   * ```
   */
  submitDecisions(continuationId: string, decisions: Decisions): Promise<void>;
}

/** Options of {@link createJobClient}. */
export interface JobClientOptions extends QueueOptions {
  /**
   * The store the workers resume from. Given it, `submitDecisions` claims the record before it
   * enqueues the job (owner `handed-off`), so that between the hand-off and a worker's start,
   * also while a worker that fetched the job and died holds it, the record is `claimed`: the inbox
   * does not offer it again and a second decision is refused at once. The worker resumes under
   * that claim (renewed in its own lease); an enqueue that fails gives it back.
   */
  store?: ContinuationStore;
  /**
   * How long such a claim holds when no worker takes the job: twice the job expiry by default
   * (`expireInSeconds`, or the queue's as the workers set it), so it outlasts the expiry that
   * hands a dead worker's job to another.
   */
  reservationMs?: number;
}

/** Who a hand-off's claim names. */
export const HANDED_OFF = 'handed-off';

/**
 * A client over a started pg-boss instance.
 *
 * @example
 * ```ts
 * const boss = await new PgBoss(process.env.DATABASE_URL!).start();
 * const client = await createJobClient(boss, { store });
 * ```
 */
export async function createJobClient(boss: PgBoss, options: JobClientOptions = {}): Promise<JobClient> {
  const names = await createQueues(boss, options);
  const { store } = options;
  // The expiry the workers set on the queue, when this client was given none of its own.
  const expiry =
    options.expireInSeconds ??
    (await boss.getQueue(names.resume))?.expireInSeconds ??
    DEFAULT_JOB_EXPIRY_SECONDS;
  const reservationMs = options.reservationMs ?? 2 * 1000 * expiry;
  return {
    async submitRun(agentName, input, runOptions = {}) {
      const runId = runOptions.runId ?? crypto.randomUUID();
      const job: RunJob = { runId, agentName, input, metadata: runOptions.metadata ?? {} };
      await boss.send(names.run, job);
      return runId;
    },
    async submitDecisions(continuationId, decisions) {
      const reservation = store
        ? await store.claim(continuationId, { owner: HANDED_OFF, leaseMs: reservationMs })
        : undefined;
      const job: ResumeJob = { continuationId, decisions, ...(reservation ? { reservation } : {}) };
      try {
        await boss.send(names.resume, job);
      } catch (error) {
        // Nothing was handed over: the record waits again, as it did before.
        if (reservation) await store!.release(reservation).catch(() => undefined);
        throw error;
      }
    },
  };
}

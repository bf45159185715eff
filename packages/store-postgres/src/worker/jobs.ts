/**
 * The jobs workers exchange through pg-boss, and the client that enqueues them. Jobs carry only
 * ids, input and decisions; continuations stay in the store.
 */
import type { Decisions, JsonObject, Message } from '@agent-continuations/core';
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
}

/** Queue names under a prefix. */
export function queueNames(prefix: string): { run: string; resume: string } {
  return { run: `${prefix}.run`, resume: `${prefix}.resume` };
}

/** Options of the queues: retried a few times, a second apart, so a dead worker's jobs come back soon. */
export interface QueueOptions {
  prefix?: string;
  /** Seconds a job may stay active before pg-boss fails it and retries; 60 by default. */
  expireInSeconds?: number;
  /** Retries of a failed or expired job; 30 by default. */
  retryLimit?: number;
  /** Seconds between retries; 1 by default. */
  retryDelay?: number;
}

/** Create both queues (idempotent). */
export async function createQueues(
  boss: PgBoss,
  options: QueueOptions = {},
): Promise<{ run: string; resume: string }> {
  const names = queueNames(options.prefix ?? 'agent-continuations');
  const settings = {
    expireInSeconds: options.expireInSeconds ?? 60,
    retryLimit: options.retryLimit ?? 30,
    retryDelay: options.retryDelay ?? 1,
  };
  for (const name of [names.run, names.resume]) {
    // Concurrent creation by several workers can race inside pg-boss; the queue exists either way.
    if (!(await boss.getQueue(name)))
      await boss.createQueue(name, { name, ...settings }).catch(() => undefined);
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
   * so the continuation is resumed once even if it is submitted twice.
   *
   * @example
   * ```ts
   * await client.submitDecisions(continuation.id, { [action.id]: { type: 'approve', by: 'ann' } });
   * ```
   */
  submitDecisions(continuationId: string, decisions: Decisions): Promise<void>;
}

/**
 * A client over a started pg-boss instance.
 *
 * @example
 * ```ts
 * const boss = await new PgBoss(process.env.DATABASE_URL!).start();
 * const client = await createJobClient(boss);
 * ```
 */
export async function createJobClient(boss: PgBoss, options: QueueOptions = {}): Promise<JobClient> {
  const names = await createQueues(boss, options);
  return {
    async submitRun(agentName, input, runOptions = {}) {
      const runId = runOptions.runId ?? crypto.randomUUID();
      const job: RunJob = { runId, agentName, input, metadata: runOptions.metadata ?? {} };
      await boss.send(names.run, job);
      return runId;
    },
    async submitDecisions(continuationId, decisions) {
      const job: ResumeJob = { continuationId, decisions };
      await boss.send(names.resume, job);
    },
  };
}

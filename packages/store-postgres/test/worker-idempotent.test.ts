import { isContinuationError, type RunResult, resumeDurably } from '@agent-continuations/core';
import { durablePlanInput, durableTestAgent } from '@agent-continuations/testing';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, expect, it } from 'vitest';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { createWorker, type Worker } from '../src/worker/create-worker';
import { createJobClient } from '../src/worker/jobs';
import { PG_URL, scratchSchema } from './pg-fixtures';
import { until } from './until';
import { openWorkerStore } from './worker-store';

const { schema, bossSchema, drop } = scratchSchema('idem');
const bossOptions = { schema: bossSchema, maintenanceIntervalSeconds: 1 };
const store = await openWorkerStore(PG_URL, schema);
const db = new pg.Pool({ connectionString: PG_URL, max: 2 });
const workers: Worker[] = [];
afterAll(async () => {
  for (const worker of workers) await worker.stop();
  await store.close();
  await db.end();
  await drop();
});

/** The jobs of a queue, oldest first: state and how often pg-boss handed them out again. */
async function jobs(queue: string): Promise<Array<{ state: string; retries: number }>> {
  const { rows } = await db.query(
    `SELECT state, retry_count AS retries FROM ${bossSchema}.job WHERE name = $1 ORDER BY created_on`,
    [queue],
  );
  return rows;
}

it('without a log, a duplicate run job and a job for a resumed, failed or live-claimed continuation do nothing', {
  timeout: 60_000,
}, async () => {
  const outcomes: RunResult<unknown>[] = [];
  const errors: unknown[] = [];
  const charged = new Map<string, number>();
  const worker = createWorker({
    store,
    connectionString: PG_URL,
    bossOptions,
    prefix: 'idem-plain',
    pollingIntervalSeconds: 0.5,
    id: 'plain',
    agents: {
      durable: durableTestAgent({
        charge: (_args, ctx) => charged.set(ctx.idempotencyKey, (charged.get(ctx.idempotencyKey) ?? 0) + 1),
        notify: () => 'sent',
      }),
    },
    onResult: (result) => outcomes.push(result),
    onError: (error) => errors.push(error),
  });
  workers.push(worker);
  await worker.start();
  const input = durablePlanInput({ steps: 2, approvals: [0] });
  const runId = await worker.submitRun('durable', input);
  const suspended = await until(() => outcomes.find((result) => result.status === 'suspended'));
  if (suspended.status !== 'suspended') throw new Error('unreachable');
  const id = suspended.continuation.id;

  // The same run job again (pg-boss retried it, or it was sent twice): the run already went on.
  await worker.submitRun('durable', input, { runId });
  await until(async () =>
    (await jobs('idem-plain.run')).every((job) => job.state === 'completed') ? true : undefined,
  );
  expect((await store.list({ runId })).items.map((item) => item.id)).toEqual([id]);
  expect(outcomes).toHaveLength(1);

  // Jobs from a client that does not know the store (a web server's own createJobClient(boss)),
  // or pg-boss's retries, reach the worker whatever became of the record meanwhile.
  const boss = new PgBoss({ connectionString: PG_URL, ...bossOptions });
  await boss.start();
  const raw = await createJobClient(boss, { prefix: 'idem-plain' });

  // A live claim (another worker resuming it right now): the worker's own client refuses to hand
  // it over; a job that comes anyway does nothing, and is not retried.
  const live = await store.claim(id, { owner: 'elsewhere', leaseMs: 60_000 });
  const decisions = { [suspended.actions[0]!.id]: { type: 'approve' as const } };
  await expect(worker.submitDecisions(id, decisions)).rejects.toMatchObject({ code: 'CLAIM_CONFLICT' });
  await raw.submitDecisions(id, decisions);
  await until(async () =>
    (await jobs('idem-plain.resume')).every((job) => job.state === 'completed') ? true : undefined,
  );
  expect(charged.size).toBe(0);
  expect((await store.load(id))?.status).toBe('claimed');
  await store.release(live);

  // Resumed once; a second job for it finds it completed and does nothing.
  await worker.submitDecisions(id, decisions);
  await until(() => outcomes.find((result) => result.status === 'completed'));
  await expect(worker.submitDecisions(id, decisions)).rejects.toMatchObject({ code: 'CLAIM_CONFLICT' });
  await raw.submitDecisions(id, decisions);
  await until(async () => {
    const all = await jobs('idem-plain.resume');
    return all.length === 3 && all.every((job) => job.state === 'completed') ? true : undefined;
  });
  expect([...charged.values()]).toEqual([1]);
  expect((await store.load(id))?.status).toBe('completed');
  expect(errors).toEqual([]);

  // A failed continuation: its job does nothing until it is retried on purpose.
  const second = await worker.submitRun('durable', input);
  const waiting = await until(
    async () => (await store.list({ runId: second, status: 'suspended' })).items[0],
  );
  await store.fail(await store.claim(waiting.id), 'TOOL_ERROR: the bank said no');
  const secondDecisions = {
    [(await store.load(waiting.id))!.continuation.pending[0]!.toolCallId]: { type: 'approve' as const },
  };
  await expect(worker.submitDecisions(waiting.id, secondDecisions)).rejects.toMatchObject({
    code: 'NOT_RESUMABLE',
  });
  await raw.submitDecisions(waiting.id, secondDecisions);
  await until(async () => {
    const all = await jobs('idem-plain.resume');
    return all.length === 4 && all.every((job) => job.state === 'completed') ? true : undefined;
  });
  expect(charged.size).toBe(1);
  expect(await store.load(waiting.id)).toMatchObject({
    status: 'failed',
    error: 'TOOL_ERROR: the bank said no',
  });
  await store.retry(waiting.id);
  await worker.submitDecisions(waiting.id, secondDecisions);
  await until(async () => ((await store.load(waiting.id))?.status === 'completed' ? true : undefined));
  expect([...charged.values()]).toEqual([1, 1]);
  await boss.stop({ graceful: false });
});

it('keeps a run slower than its job expiry to one worker: the expired job handed to another worker does nothing', {
  timeout: 60_000,
}, async () => {
  const log = createPostgresCheckpointLog({ connectionString: PG_URL, schema });
  const charged: string[] = [];
  const prefix = 'idem-slow';
  const agent = durableTestAgent({
    name: 'slow',
    charge: async (args, ctx) => {
      charged.push(ctx.idempotencyKey);
      // The first charge outlives its job's expiry: it waits until pg-boss expired the job, handed
      // it to another worker, and that worker, finding the run's lease alive, did nothing.
      if (args.n === 0) {
        await until(async () => {
          const [job] = await jobs(`${prefix}.run`);
          return job && job.retries > 0 && job.state === 'completed' ? true : undefined;
        });
      }
      return 'charged';
    },
    notify: () => 'sent',
  });
  const options = {
    store,
    checkpoints: log,
    connectionString: PG_URL,
    bossOptions,
    prefix,
    pollingIntervalSeconds: 0.5,
    expireInSeconds: 1,
    retryDelay: 1,
    leaseMs: 450,
    agents: { slow: agent },
  };
  const results: RunResult<unknown>[] = [];
  const one = createWorker({ ...options, id: 'one', onResult: (result) => results.push(result) });
  const errors: unknown[] = [];
  const two = createWorker({
    ...options,
    id: 'two',
    onResult: (result) => results.push(result),
    onError: (error) => errors.push(error),
  });
  workers.push(one, two);
  await one.start();
  const runId = await one.submitRun('slow', durablePlanInput({ steps: 2 }));
  await until(() => (charged.length > 0 ? true : undefined));
  await two.start();
  await until(async () => ((await log.status(runId))?.status === 'completed' ? true : undefined));
  expect(charged).toHaveLength(1);
  expect(results.map((result) => result.status)).toEqual(['completed']);
  expect(errors).toEqual([]);
  await log.close();
});

it('refuses a job expiry shorter than twice the lease', () => {
  let error: unknown;
  try {
    createWorker({ store, connectionString: PG_URL, agents: {}, expireInSeconds: 1, leaseMs: 30_000 });
  } catch (caught) {
    error = caught;
  }
  expect(isContinuationError(error, 'INVALID_OPERATION')).toBe(true);
});

it('saves the suspension the log recorded when an earlier attempt died before saving it, and completes the old one', {
  timeout: 60_000,
}, async () => {
  const log = createPostgresCheckpointLog({ connectionString: PG_URL, schema });
  const charged: string[] = [];
  const agent = durableTestAgent({
    name: 'twice',
    charge: (_args, ctx) => charged.push(ctx.idempotencyKey),
    notify: () => 'sent',
  });
  const first = await agent.run(durablePlanInput({ steps: 3, approvals: [0, 2] }));
  if (first.status !== 'suspended') throw new Error('expected an approval');
  await store.save(first.continuation);
  const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
  // An earlier attempt resumed it durably, reached the next approval (recorded in the log), and
  // died before saving that suspension in the store or completing the claim.
  const lost = await resumeDurably(agent, log, first.continuation, decisions, { owner: 'dead' });
  if (lost.status !== 'suspended') throw new Error('expected the second approval');
  expect(await store.load(lost.continuation.id)).toBeUndefined();

  const worker = createWorker({
    store,
    checkpoints: log,
    connectionString: PG_URL,
    bossOptions,
    prefix: 'idem-unsaved',
    pollingIntervalSeconds: 0.5,
    id: 'retry',
    agents: { twice: agent },
  });
  workers.push(worker);
  // pg-boss retries the dead attempt's job.
  await worker.submitDecisions(first.continuation.id, decisions);
  await until(async () =>
    (await store.load(first.continuation.id))?.status === 'completed' ? true : undefined,
  );
  const saved = await store.load(lost.continuation.id);
  expect(saved?.status).toBe('suspended');
  expect(saved?.continuation.pending.map((entry) => entry.toolCallId)).toEqual(
    lost.continuation.pending.map((entry) => entry.toolCallId),
  );
  expect(charged).toHaveLength(1);
  await log.close();
});

import { createRuntime, isContinuationError, onAbort, type RunResult } from '@agent-continuations/core';
import { replayCheckpoints } from '@agent-continuations/core/store-kit';
import { durablePlanInput, durableTestAgent } from '@agent-continuations/testing';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { createWorker, type Worker } from '../src/worker/create-worker';
import { createJobClient } from '../src/worker/jobs';
import { PG_URL, scratchSchema } from './pg-fixtures';
import { until } from './until';
import { openWorkerStore } from './worker-store';

const { schema, bossSchema, drop } = scratchSchema('worker');
const bossOptions = { schema: bossSchema, maintenanceIntervalSeconds: 1 };
const log = createPostgresCheckpointLog({ connectionString: PG_URL, schema });
const store = await openWorkerStore(PG_URL, schema);
const charges = new Map<string, number>();
const results: RunResult<unknown>[] = [];
const agent = durableTestAgent({
  charge: (_args, ctx) => charges.set(ctx.idempotencyKey, (charges.get(ctx.idempotencyKey) ?? 0) + 1),
  notify: () => 'sent',
});
const workers: Worker[] = [];

beforeAll(async () => {
  for (const id of ['a', 'b']) {
    const worker = createWorker({
      store,
      checkpoints: log,
      connectionString: PG_URL,
      bossOptions,
      agents: { durable: agent },
      id,
      pollingIntervalSeconds: 0.5,
      onResult: (result) => results.push(result),
    });
    await worker.start();
    workers.push(worker);
  }
});
afterAll(async () => {
  for (const worker of workers) await worker.stop();
  await log.close();
  await store.close();
  await drop();
});

it('runs submitted jobs, resumes decisions on any worker, and resumes a twice-submitted continuation once', {
  timeout: 60_000,
}, async () => {
  const runIds = await Promise.all(
    Array.from({ length: 10 }, () =>
      workers[0]!.submitRun('durable', durablePlanInput({ steps: 3, approvals: [2] })),
    ),
  );
  const suspended = await until(async () => {
    const page = await store.list({ status: 'suspended', limit: 100 });
    return page.items.length === 10 ? page.items : undefined;
  });
  expect(new Set(suspended.map((item) => item.runId))).toEqual(new Set(runIds));
  for (const item of suspended) {
    const { continuation } = (await store.load(item.id))!;
    const decisions = { [continuation.pending[0]!.toolCallId]: { type: 'approve' as const } };
    // Submitted twice, on both workers: the hand-off's claim refuses the second at once.
    await workers[0]!.submitDecisions(item.id, decisions);
    await expect(workers[1]!.submitDecisions(item.id, decisions)).rejects.toMatchObject({
      code: 'CLAIM_CONFLICT',
    });
  }
  await until(async () => {
    const statuses = await Promise.all(runIds.map((runId) => log.status(runId)));
    return statuses.every((status) => status?.status === 'completed') ? true : undefined;
  });
  // The log says completed a moment before the worker settles the store and reports the result.
  await until(() =>
    results.filter((result) => result.status === 'completed').length >= 10 ? true : undefined,
  );
  expect(charges.size).toBe(20);
  expect([...charges.values()].every((count) => count === 1)).toBe(true);
  expect(results.filter((result) => result.status === 'completed')).toHaveLength(10);
});

it('on stop, a worker suspends its running agent at the next step, and another worker finishes it', {
  timeout: 60_000,
}, async () => {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reached = () => {};
  const atGate = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const executions = new Map<string, number>();
  const gated =
    (blocking: boolean) =>
    ({ shutdown }: { shutdown: AbortSignal }) =>
      durableTestAgent({
        name: 'gated',
        suspendWhen: [onAbort(shutdown)],
        charge: async (args, ctx) => {
          executions.set(ctx.idempotencyKey, (executions.get(ctx.idempotencyKey) ?? 0) + 1);
          if (blocking && args.n === 0) {
            reached();
            await gate;
          }
          return 'charged';
        },
        notify: (_args, ctx) =>
          executions.set(ctx.idempotencyKey, (executions.get(ctx.idempotencyKey) ?? 0) + 1),
      });
  const options = {
    store,
    checkpoints: log,
    connectionString: PG_URL,
    bossOptions,
    prefix: 'graceful',
    pollingIntervalSeconds: 0.5,
  };
  const first = createWorker({ ...options, id: 'first', agents: { gated: gated(true) } });
  await first.start();
  const runId = await first.submitRun('gated', durablePlanInput({ steps: 3 }));
  await atGate;
  const stopping = first.stop();
  release();
  await stopping;

  const saved = (await store.list({ runId })).items;
  expect(saved).toHaveLength(1);
  const { continuation } = (await store.load(saved[0]!.id))!;
  expect(continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['onAbort'] });
  expect(continuation.step).toBe(1);

  const second = createWorker({ ...options, id: 'second', agents: { gated: gated(false) } });
  await second.start();
  workers.push(second);
  await until(async () => ((await log.status(runId))?.status === 'completed' ? true : undefined));
  expect([...executions.values()]).toEqual([1, 1, 1]);
  expect(replayCheckpoints(await log.read(runId)).output).toBe('completed 3 steps');
});

it('works without a checkpoint log: runs, saves the suspension, resumes it once', {
  timeout: 60_000,
}, async () => {
  const outcomes: RunResult<unknown>[] = [];
  const errors: unknown[] = [];
  const paid = new Map<string, number>();
  const plain = createWorker({
    store,
    connectionString: PG_URL,
    bossOptions,
    prefix: 'plain',
    pollingIntervalSeconds: 0.5,
    id: 'plain',
    agents: {
      durable: durableTestAgent({
        charge: (_args, ctx) => paid.set(ctx.idempotencyKey, (paid.get(ctx.idempotencyKey) ?? 0) + 1),
        notify: () => 'sent',
      }),
    },
    onResult: (result) => outcomes.push(result),
    onError: (error) => errors.push(error),
  });
  workers.push(plain);
  await plain.start();
  const runId = await plain.submitRun('durable', durablePlanInput({ steps: 2, approvals: [0] }), {
    metadata: { tenant: 'acme' },
  });
  const suspended = await until(() => outcomes.find((result) => result.status === 'suspended'));
  if (suspended.status !== 'suspended') throw new Error('unreachable');
  expect(suspended.continuation.runId).toBe(runId);
  expect(suspended.continuation.metadata).toEqual({ tenant: 'acme' });
  expect((await store.load(suspended.continuation.id))?.status).toBe('suspended');
  // Decisions for an action that is not pending: refused with a typed error, nothing runs, it still waits.
  await plain.submitDecisions(suspended.continuation.id, { call_9_9: { type: 'approve' } });
  const refused = await until(() => errors.find((error) => isContinuationError(error)));
  expect(refused).toMatchObject({ code: 'UNKNOWN_ACTION' });
  expect((await store.load(suspended.continuation.id))?.status).toBe('suspended');
  expect(paid.size).toBe(0);
  const decisions = { [suspended.actions[0]!.id]: { type: 'approve' as const } };
  await plain.submitDecisions(suspended.continuation.id, decisions);
  await expect(plain.submitDecisions(suspended.continuation.id, decisions)).rejects.toMatchObject({
    code: 'CLAIM_CONFLICT',
  });
  await until(() => outcomes.find((result) => result.status === 'completed'));
  await until(async () =>
    (await store.load(suspended.continuation.id))?.status === 'completed' ? true : undefined,
  );
  expect([...paid.values()]).toEqual([1]);
  expect(await log.status(runId)).toBeUndefined();
});

it('a decision handed to the queue reads as being resumed until a worker begins it; a failed hand-off gives the record back', {
  timeout: 60_000,
}, async () => {
  const prefix = 'handoff';
  const runtime = createRuntime({ agents: [agent], store });
  const started = async () => {
    const result = await runtime.start('durable', durablePlanInput({ steps: 2, approvals: [0] }));
    if (result.status !== 'suspended') throw new Error('expected a suspension');
    return {
      id: result.continuation.id,
      decisions: { [result.actions[0]!.id]: { type: 'approve' as const } },
    };
  };
  const boss = new PgBoss({ connectionString: PG_URL, ...bossOptions });
  await boss.start();
  const client = await createJobClient(boss, { prefix, store });
  const waiting = await started();
  const before = charges.size;

  // No worker serves the queue yet, as while a worker that fetched the job lies dead.
  await client.submitDecisions(waiting.id, waiting.decisions);
  expect((await store.load(waiting.id))?.status).toBe('claimed');
  expect((await runtime.inbox()).items.map((item) => item.continuationId)).not.toContain(waiting.id);
  await expect(client.submitDecisions(waiting.id, waiting.decisions)).rejects.toMatchObject({
    code: 'CLAIM_CONFLICT',
  });

  const worker = createWorker({
    store,
    connectionString: PG_URL,
    bossOptions,
    agents: { durable: agent },
    prefix,
    id: 'handoff',
    pollingIntervalSeconds: 0.5,
  });
  await worker.start();
  await until(async () => ((await store.load(waiting.id))?.status === 'completed' ? true : undefined));
  expect(charges.size).toBe(before + 1);
  await worker.stop();

  // The queue is gone (its boss stopped): nothing is handed over, and the record waits again.
  const other = await started();
  await boss.stop({ graceful: false });
  await expect(client.submitDecisions(other.id, other.decisions)).rejects.toThrow();
  expect((await store.load(other.id))?.status).toBe('suspended');
  expect(charges.size).toBe(before + 1);
});

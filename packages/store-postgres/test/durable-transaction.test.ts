/**
 * The checkpoint log and the store on one Postgres pool: a suspension's log entry and its stored
 * continuation are written in one transaction (issue 11, "one source of truth for a run's progress").
 */
import {
  type CheckpointStep,
  type Continuation,
  isContinuationError,
  resumeStored,
  runDurably,
} from '@agent-continuations/core';
import { durablePlanInput, durableTestAgent } from '@agent-continuations/testing';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createPostgresCheckpointLog, type PostgresCheckpointLog } from '../src/checkpoints';
import { createPostgresStore, type PostgresStore } from '../src/postgres-store';
import { PG_URL, scratchSchema } from './pg-fixtures';

let pool: pg.Pool;
let store: PostgresStore;
let log: PostgresCheckpointLog;
let drop: () => Promise<void>;
beforeEach(async () => {
  const scratch = scratchSchema('tx');
  drop = scratch.drop;
  pool = new pg.Pool({ connectionString: PG_URL });
  store = createPostgresStore({ pool, schema: scratch.schema });
  log = createPostgresCheckpointLog({ pool, schema: scratch.schema });
});
afterEach(async () => {
  await pool.end();
  await drop();
});

const agent = durableTestAgent({ charge: () => 'charged', notify: () => 'sent' });

it('a suspension is logged and stored in one transaction: a store write that fails leaves no suspend entry', async () => {
  const first = await agent.run(durablePlanInput({ steps: 2, approvals: [0] }));
  if (first.status !== 'suspended') throw new Error('expected a suspension');
  const lease = await log.begin(
    {
      type: 'start',
      runId: first.continuation.runId,
      agentName: agent.name,
      at: new Date().toISOString(),
      from: first.continuation,
    },
    { owner: 'w1', leaseMs: 60_000 },
  );
  const next: Continuation = { ...first.continuation, id: 'next-1' };
  const entry: CheckpointStep = {
    type: 'suspend',
    step: next.step,
    usage: next.usage,
    suspension: { id: next.id, createdAt: next.createdAt, suspendedBy: next.suspendedBy },
  };
  // A claim that is not held: the store's half fails, so the log's half is rolled back.
  const stale = {
    id: first.continuation.id,
    owner: 'ghost',
    token: 'not-held',
    leaseUntil: new Date().toISOString(),
  };
  await store.save(first.continuation);
  await expect(log.appendWith!(lease, entry, { store, next, claim: stale })).rejects.toSatisfy((error) =>
    isContinuationError(error, 'LEASE_LOST'),
  );
  expect((await log.read(first.continuation.runId)).map((e) => e.type)).toEqual(['start']);
  expect((await log.status(first.continuation.runId))?.status).toBe('running');
  expect(await store.load('next-1')).toBeUndefined();

  // With the claim held, both halves land together and nothing is left to reconcile.
  const claim = await store.claim(first.continuation.id, { owner: 'w1' });
  expect(await log.appendWith!(lease, entry, { store, next, claim })).toBe(true);
  expect((await log.status(first.continuation.runId))?.status).toBe('suspended');
  expect((await store.load(first.continuation.id))?.status).toBe('completed');
  expect((await store.load('next-1'))?.status).toBe('suspended');
  expect(await log.unsaved()).toEqual([]);
});

it('runDurably and resumeStored with a log on the same database write suspensions through the log transaction', async () => {
  let completes = 0;
  let saves = 0;
  const counted: PostgresStore = Object.create(store);
  counted.complete = (claim, options) => {
    completes++;
    return store.complete(claim, options);
  };
  counted.save = (continuation, options) => {
    saves++;
    return store.save(continuation, options);
  };
  const first = await runDurably(agent, log, durablePlanInput({ steps: 4, approvals: [0, 2] }), {
    runId: 'tx-1',
    owner: 'w1',
    store: counted,
  });
  if (first.status !== 'suspended') throw new Error('expected a suspension');
  expect((await store.load(first.continuation.id))?.status).toBe('suspended');
  const second = await resumeStored(
    counted,
    agent,
    first.continuation.id,
    { [first.actions[0]!.id]: { type: 'approve' } },
    {
      log,
    },
  );
  if (second.status !== 'suspended') throw new Error('expected the second approval');
  expect((await store.load(first.continuation.id))?.status).toBe('completed');
  expect((await store.load(second.continuation.id))?.status).toBe('suspended');
  // Neither went through the store's own save or complete: the log's transaction wrote them.
  expect({ saves, completes }).toEqual({ saves: 0, completes: 0 });
  expect(await log.unsaved()).toEqual([]);
  const done = await resumeStored(
    counted,
    agent,
    second.continuation.id,
    { [second.actions[0]!.id]: { type: 'approve' } },
    {
      log,
    },
  );
  expect(done).toMatchObject({ status: 'completed', output: 'completed 4 steps' });
  expect((await store.load(second.continuation.id))?.status).toBe('completed');
  // The end of the run completed the claim in the log's transaction too.
  expect({ saves, completes }).toEqual({ saves: 0, completes: 0 });
  expect((await log.status('tx-1'))?.status).toBe('completed');
});

/**
 * The fault suite for the sweeps, on a throwaway Postgres cluster: a worker frozen inside the
 * log's transaction (its run row locked, its lease lapsed) must not stop the others' recovery
 * sweep nor their new runs; a sweep round slower than its interval must not start another beside
 * it; and a sweeper whose clock is two minutes fast judges deadlines by the database's clock.
 */
import { createRuntime, sweepDeadlines } from '@agent-continuations/core';
import { durablePlanInput, durableTestAgent } from '@agent-continuations/testing';
import { expect, it, vi } from 'vitest';
import { createPostgresCheckpointLog } from '../../src/checkpoints';
import { createPostgresStore } from '../../src/postgres-store';
import { createWorker } from '../../src/worker/create-worker';
import { clusterPerFile, schemaName, sleep } from './throwaway-postgres';

const cluster = clusterPerFile();

it('a worker frozen inside the log transaction stops neither the recovery sweep nor new runs', async () => {
  const schema = schemaName('frozen');
  const store = createPostgresStore({ connectionString: cluster.db.url, schema });
  const log = createPostgresCheckpointLog({ connectionString: cluster.db.url, schema });
  const agent = durableTestAgent({ charge: () => 'paid', notify: () => 'sent' });
  // The frozen worker's run: begun under a short lease that has lapsed, its row locked by the
  // transaction the worker froze in.
  await log.begin(
    {
      type: 'start',
      runId: 'frozen-run',
      agentName: 'durable',
      at: new Date().toISOString(),
      input: [{ role: 'user', content: durablePlanInput({ steps: 1 }) }],
      metadata: {},
    },
    { owner: 'frozen', leaseMs: 1 },
  );
  const frozen = await cluster.admin.connect();
  await frozen.query('BEGIN');
  await frozen.query(`SELECT 1 FROM ${schema}.checkpoint_runs WHERE run_id = 'frozen-run' FOR UPDATE`);
  const errors: unknown[] = [];
  const worker = createWorker({
    runtime: createRuntime({ agents: [agent], store, log, owner: 'alive' }),
    connectionString: cluster.db.url,
    bossOptions: { schema: `${schema}_boss`, max: 2 },
    leaseMs: 1_000,
    recoverIntervalMs: 50,
    pollingIntervalSeconds: 0.5,
    onError: (error) => errors.push(error),
  });
  try {
    await worker.start();
    await sleep(1_500); // 30 rounds of the recovery sweep
    const waiting = Number(
      (
        await cluster.admin.query(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%checkpoint_runs%'`,
        )
      ).rows[0].n,
    );
    const runId = await worker.submitRun('durable', durablePlanInput({ steps: 2 }));
    let status: string | undefined;
    for (let i = 0; i < 100 && status !== 'completed'; i++) {
      await sleep(100);
      status = (await log.status(runId))?.status;
    }
    console.log(
      `faults/frozen-in-transaction: ${waiting} sessions waiting on the frozen row after 1.5 s of sweeps; a new run ${status ?? 'never began'}`,
    );
    expect(waiting).toBeLessThanOrEqual(0);
    expect(status).toBe('completed');
    expect((await log.status('frozen-run'))?.owner).toBe('frozen');
    // Once the frozen worker's transaction ends, the sweep takes its run over and finishes it.
    await frozen.query('ROLLBACK');
    status = undefined;
    for (let i = 0; i < 100 && status !== 'completed'; i++) {
      await sleep(100);
      status = (await log.status('frozen-run'))?.status;
    }
    expect(status).toBe('completed');
  } finally {
    frozen.release();
    await worker.stop();
    await Promise.all([store.close(), log.close()]);
  }
}, 40_000);

it('a recovery sweep slower than its interval never overlaps itself: one round at a time, the next after it ends', async () => {
  const schema = schemaName('overlap');
  const store = createPostgresStore({ connectionString: cluster.db.url, schema });
  const log = createPostgresCheckpointLog({ connectionString: cluster.db.url, schema });
  const agent = durableTestAgent({ charge: () => 'paid', notify: () => 'sent' });
  // A database that answers the sweep's first query slowly (a long lock wait, a busy server).
  const rounds = { started: 0, running: 0, most: 0 };
  const slow: typeof log = {
    ...log,
    expired: async (filter) => {
      rounds.started++;
      rounds.running++;
      rounds.most = Math.max(rounds.most, rounds.running);
      try {
        await sleep(400);
        return await log.expired(filter);
      } finally {
        rounds.running--;
      }
    },
  };
  const worker = createWorker({
    runtime: createRuntime({ agents: [agent], store, log: slow, owner: 'alive' }),
    connectionString: cluster.db.url,
    bossOptions: { schema: `${schema}_boss`, max: 2 },
    leaseMs: 1_000,
    recoverIntervalMs: 50,
    pollingIntervalSeconds: 0.5,
  });
  try {
    await worker.start();
    await sleep(1_500);
    console.log(
      `faults/sweep-overlap: a 400 ms sweep every 50 ms for 1.5 s: ${rounds.started} rounds started, at most ${rounds.most} at once`,
    );
    expect(rounds.most).toBe(1);
    expect(rounds.started).toBeGreaterThanOrEqual(2);
    expect(rounds.started).toBeLessThanOrEqual(5);
  } finally {
    await worker.stop();
    await Promise.all([store.close(), log.close()]);
  }
}, 20_000);

it('a sweeper whose clock runs two minutes fast rejects nothing early: deadlines are judged by the database clock', async () => {
  const schema = schemaName('skew');
  const store = createPostgresStore({ connectionString: cluster.db.url, schema });
  const agent = durableTestAgent({ charge: () => 'paid', notify: () => 'sent' });
  const runtime = createRuntime({ agents: [agent], store, deadlines: () => 60_000 });
  try {
    const result = await runtime.start('durable', durablePlanInput({ steps: 1, approvals: [0] }));
    if (result.status !== 'suspended') throw new Error(`expected a suspension, got ${result.status}`);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 120_000);
    const skewed = await sweepDeadlines({ store, agents: { durable: agent } });
    vi.useRealTimers();
    console.log(
      `faults/clock-skew: sweeper 120 s fast, deadline 60 s ahead by the database: ${skewed.rejected.length} rejected early`,
    );
    expect(skewed.rejected).toEqual([]);
    expect((await store.load(result.continuation.id))?.status).toBe('suspended');
    // Past the deadline by the database's clock, the sweep rejects it.
    const dbNow = await store.now();
    const late = await sweepDeadlines({
      store,
      agents: { durable: agent },
      now: new Date(dbNow.getTime() + 61_000),
    });
    expect(late.rejected.map(({ continuationId }) => continuationId)).toEqual([result.continuation.id]);
  } finally {
    vi.useRealTimers();
    await store.close();
  }
});

/**
 * The fault suite, in one process: a throwaway Postgres cluster whose sessions the test
 * terminates (idle, waiting on a lock, or idle inside the log's transaction), which it stops before
 * first use, and which a burst on one pool must not deadlock.
 * An unhandled `'error'` event of a pool or a checked-out client would end the test process.
 */
import {
  type CheckpointStart,
  type ContinuationError,
  isContinuationError,
  runDurably,
} from '@agent-continuations/core';
import { durablePlanInput, durableTestAgent } from '@agent-continuations/testing';
import pg from 'pg';
import { expect, it } from 'vitest';
import { createPostgresCheckpointLog } from '../../src/checkpoints';
import { createPostgresStore } from '../../src/postgres-store';
import { clusterPerFile, schemaName, sleep } from './throwaway-postgres';

const cluster = clusterPerFile();

/** Terminate every session but the admin pool's own; returns how many. */
async function terminateOthers(where = 'true'): Promise<number> {
  const { rows } = await cluster.admin.query(
    `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n FROM pg_stat_activity
     WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND datname = current_database() AND ${where}`,
  );
  return Number(rows[0].n);
}

const startEntry = (runId: string): CheckpointStart => ({
  type: 'start',
  runId,
  agentName: 'durable',
  at: new Date().toISOString(),
  input: [{ role: 'user', content: 'hi' }],
  metadata: {},
});

/** The code of the error `promise` rejects with, or `resolved`. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return isContinuationError(error) ? error.code : `raw ${(error as Error).message}`;
  }
}

it('store and log survive pg_terminate_backend of their idle sessions, and the next call reconnects', async () => {
  const schema = schemaName('idle');
  const store = createPostgresStore({ connectionString: cluster.db.url, schema });
  const log = createPostgresCheckpointLog({ connectionString: cluster.db.url, schema });
  const agent = durableTestAgent({ charge: () => 'paid', notify: () => 'sent' });
  try {
    // Open several idle connections in each pool.
    await Promise.all(Array.from({ length: 4 }, () => store.list({ limit: 1 })));
    await Promise.all(Array.from({ length: 4 }, () => log.status('none')));
    const terminated = await terminateOthers();
    await sleep(300); // the idle clients see their connections end
    const result = await runDurably(agent, log, durablePlanInput({ steps: 2 }), { store, owner: 'w' });
    expect(result.status).toBe('completed');
    expect((await store.list({ limit: 1 })).items).toEqual([]);
    console.log(
      `faults/idle-terminate: ${terminated} idle sessions terminated, 0 deaths, next run completed`,
    );
  } finally {
    await Promise.all([store.close(), log.close()]);
  }
});

it('a session terminated inside the log transaction fails that call with STORE_UNAVAILABLE; the next one goes through', async () => {
  const schema = schemaName('intx');
  const log = createPostgresCheckpointLog({ connectionString: cluster.db.url, schema });
  await log.status('none');
  const blocker = await cluster.admin.connect();
  try {
    // Hold the run row so that the log's transaction waits, inside it, on its lock.
    await blocker.query('BEGIN');
    await blocker.query(
      `INSERT INTO ${schema}.checkpoint_runs (run_id, agent_name, status, lease_ms, next_seq) VALUES ('r1', 'durable', 'new', 1000, 1)`,
    );
    // Its outcome is awaited below; the rejection is observed from the start.
    const started = outcome(log.begin(startEntry('r1'), { owner: 'w', leaseMs: 5_000 }));
    let waiting = 0;
    for (let i = 0; i < 100 && waiting === 0; i++) {
      await sleep(50);
      waiting = await terminateOthers(`wait_event_type = 'Lock'`);
    }
    expect(waiting).toBe(1);
    const code = await started;
    await blocker.query('ROLLBACK');
    expect(code).toBe('STORE_UNAVAILABLE');
    await sleep(200);
    const lease = await log.begin(startEntry('r1'), { owner: 'w', leaseMs: 5_000 });
    expect((await log.status('r1'))?.owner).toBe(lease.owner);
    console.log(
      `faults/in-transaction-terminate: call in flight failed with ${code}, 0 deaths, next begin succeeded`,
    );
  } finally {
    blocker.release();
    await log.close();
  }
});

it('a session terminated while the log transaction waits between statements fails that run with STORE_UNAVAILABLE; the next run goes through', async () => {
  const schema = schemaName('idletx');
  const pool = new pg.Pool({ connectionString: cluster.db.url, max: 4 });
  const store = createPostgresStore({ pool, schema });
  const log = createPostgresCheckpointLog({ pool, schema });
  const agent = durableTestAgent({ charge: () => 'paid', notify: () => 'sent' });
  // The store writes the suspension in the log's transaction; here it pauses first, so that the
  // transaction's client is checked out and idle when its session ends.
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  let resume!: () => void;
  const gate = new Promise<void>((resolve) => {
    resume = resolve;
  });
  const paused: typeof store = Object.create(store);
  paused.writeIn = async (client, write) => {
    entered();
    await gate;
    return store.writeIn(client, write);
  };
  try {
    await store.migrate();
    await log.migrate();
    const run = outcome(
      runDurably(agent, log, durablePlanInput({ steps: 1, approvals: [0] }), { store: paused, owner: 'w' }),
    );
    await inside;
    const terminated = await terminateOthers(`state = 'idle in transaction'`);
    await sleep(300); // the checked-out client sees its connection end
    resume();
    const code = await run;
    const next = await runDurably(agent, log, durablePlanInput({ steps: 1, approvals: [0] }), {
      store,
      owner: 'w',
    });
    console.log(
      `faults/idle-in-transaction-terminate: ${terminated} session terminated, the run in flight failed with ${code}, 0 deaths, next run ${next.status}`,
    );
    expect(terminated).toBe(1);
    expect(code).toBe('STORE_UNAVAILABLE');
    expect(next.status).toBe('suspended');
  } finally {
    resume();
    await pool.end();
  }
});

it('a log and a store first used during an outage fail typed, then work once the database is back', async () => {
  const schema = schemaName('outage');
  await cluster.db.stop();
  const store = createPostgresStore({ connectionString: cluster.db.url, schema });
  const log = createPostgresCheckpointLog({ connectionString: cluster.db.url, schema });
  try {
    const during = [await outcome(log.status('none')), await outcome(store.list({ limit: 1 }))];
    const started = Date.now();
    await cluster.db.start();
    const after = [await outcome(log.status('none')), await outcome(store.list({ limit: 1 }))];
    console.log(
      `faults/outage-at-first-use: during ${during.join(', ')}; after ${after.join(', ')} (${Date.now() - started} ms from restart to first good call)`,
    );
    expect(during).toEqual(['STORE_UNAVAILABLE', 'STORE_UNAVAILABLE']);
    expect(after).toEqual(['resolved', 'resolved']);
  } finally {
    await cluster.db.start().catch(() => undefined);
    await Promise.all([store.close(), log.close()]);
  }
});

it('24 concurrent durable runs on one pool of 10, store not yet migrated, all finish (no deadlock)', async () => {
  const schema = schemaName('onepool');
  const pool = new pg.Pool({ connectionString: cluster.db.url, max: 10 });
  const store = createPostgresStore({ pool, schema });
  const log = createPostgresCheckpointLog({ pool, schema });
  const agent = durableTestAgent({ charge: () => 'paid', notify: () => 'sent' });
  try {
    const runs = Array.from({ length: 24 }, (_, i) =>
      runDurably(agent, log, durablePlanInput({ steps: 2, approvals: [0] }), { store, owner: `w${i}` }),
    );
    let finished = 0;
    for (const run of runs)
      void run.then(
        () => finished++,
        () => finished++,
      );
    const settled = await Promise.race([Promise.allSettled(runs), sleep(20_000).then(() => undefined)]);
    const idleInTx = Number(
      (
        await cluster.admin.query(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'idle in transaction'`,
        )
      ).rows[0].n,
    );
    console.log(
      `faults/one-pool-burst: ${finished} of 24 runs finished, ${idleInTx} sessions idle in transaction`,
    );
    expect(
      settled,
      `deadlock: ${finished} of 24 runs finished, ${idleInTx} sessions idle in transaction`,
    ).toBeDefined();
    const failures = settled!.filter((run) => run.status === 'rejected');
    expect(failures.map((failure) => (failure as PromiseRejectedResult).reason as ContinuationError)).toEqual(
      [],
    );
    expect((await store.list({ status: 'suspended', limit: 100 })).items).toHaveLength(24);
  } finally {
    await cluster.admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state = 'idle in transaction'`,
    );
    pool.on('error', () => undefined);
    await pool.end();
  }
}, 40_000);

it('a process starting while a long read is open neither waits for it nor freezes the others; an outdated schema fails its lock in time', async () => {
  const schema = schemaName('longread');
  const running = createPostgresStore({ connectionString: cluster.db.url, schema });
  const runningLog = createPostgresCheckpointLog({ connectionString: cluster.db.url, schema });
  const agent = durableTestAgent({ charge: () => 'paid', notify: () => 'sent' });
  const first = await runDurably(agent, runningLog, durablePlanInput({ steps: 1, approvals: [0] }), {
    store: running,
    owner: 'w0',
  });
  if (first.status !== 'suspended') throw new Error(`expected a suspension, got ${first.status}`);
  const reader = await cluster.admin.connect();
  const starting = createPostgresStore({
    connectionString: cluster.db.url,
    schema,
    migrationLockTimeoutMs: 500,
  });
  const startingLog = createPostgresCheckpointLog({
    connectionString: cluster.db.url,
    schema,
    migrationLockTimeoutMs: 500,
  });
  /** How the call ends within 5 s: its outcome, or `frozen`. */
  const bounded = (call: Promise<unknown>) =>
    Promise.race([outcome(call), sleep(5_000).then(() => 'frozen')]);
  try {
    // A report (or pg_dump) holds its tables for as long as it reads.
    await reader.query('BEGIN');
    await reader.query(`SELECT count(*) FROM "${schema}"."continuations"`);
    await reader.query(`SELECT count(*) FROM ${schema}.checkpoint_runs`);
    const start = Date.now();
    const started = await Promise.all([
      bounded(starting.list({ limit: 1 })),
      bounded(startingLog.status(first.continuation.runId)),
    ]);
    const others = await Promise.all([
      bounded(running.load(first.continuation.id)),
      bounded(runningLog.status(first.continuation.runId)),
    ]);
    console.log(
      `faults/long-read-at-start: starting process ${started.join(', ')}, running workers ${others.join(', ')} (${Date.now() - start} ms)`,
    );
    expect(started).toEqual(['resolved', 'resolved']);
    expect(others).toEqual(['resolved', 'resolved']);

    // A schema from an older version must change: its lock waits at most the lock timeout.
    await cluster.admin.query(`COMMENT ON TABLE "${schema}"."continuations" IS NULL`);
    const older = createPostgresStore({
      connectionString: cluster.db.url,
      schema,
      migrationLockTimeoutMs: 500,
    });
    const migrating = older.migrate();
    const meanwhile = await bounded(running.load(first.continuation.id));
    let refusal: unknown;
    await migrating.catch((error) => (refusal = error));
    expect(meanwhile).toBe('resolved');
    expect(isContinuationError(refusal, 'STORE_UNAVAILABLE')).toBe(true);
    expect((refusal as Error).message).toMatch(/could not take its lock within 500 ms/);
    await reader.query('COMMIT');
    await older.migrate(); // tried again, not cached
    await older.close();
  } finally {
    reader.release();
    await Promise.all([running.close(), runningLog.close(), starting.close(), startingLog.close()]);
  }
});

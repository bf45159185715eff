/**
 * The fault suite, with worker processes: three workers built as the README builds them serve
 * runs on a throwaway Postgres cluster while the test restarts it (`pg_ctl restart -m fast`) and
 * then crashes it (SIGKILL of the postmaster and its backends). No worker may die, every run must
 * complete, and every payment (keyed by its idempotency key, in a ledger on another server) must
 * be made once. The time from the database's return to the next completed run is printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRuntime } from '@agent-continuations/core';
import { durablePlanInput } from '@agent-continuations/testing';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres-store';
import { createJobClient, type JobClient } from '../../src/worker/jobs';
import { postgresCrashLedger } from '../crash-ledger';
import { PG_URL, scratchSchema } from '../pg-fixtures';
import { startThrowawayPostgres, type ThrowawayPostgres } from './throwaway-postgres';

const RUNS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startWorker(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; ready: Promise<void>; output: string[] } {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@agent-continuations/source',
      '--import',
      'tsx',
      fileURLToPath(new URL('./fault-worker.ts', import.meta.url)),
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  const output: string[] = [];
  const ready = new Promise<void>((resolve) =>
    child.stdout!.on('data', (chunk) => {
      output.push(String(chunk));
      if (String(chunk).includes('ready')) resolve();
    }),
  );
  return { child, ready, output };
}

/** Poll `probe` every 100 ms until it holds, at most `ms`; false when it never did. */
async function within(ms: number, probe: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(100);
  }
  return false;
}

/** A throwaway cluster, a ledger on the shared server, worker processes, and a job client. */
interface Fleet {
  db: ThrowawayPostgres;
  ledger: Awaited<ReturnType<typeof postgresCrashLedger>>;
  workers: ReturnType<typeof startWorker>[];
  spawn(id: string, env?: Record<string, string>): ReturnType<typeof startWorker>;
  client(): Promise<JobClient>;
  /** Runs completed in the log, or -1 while the database is down. */
  completed(): Promise<number>;
  /** Jobs pg-boss handed out and did not get back. */
  active(): Promise<number>;
}

async function withFleet(prefix: string, body: (fleet: Fleet) => Promise<void>): Promise<void> {
  const db = await startThrowawayPostgres();
  const { schema: ledgerSchema, drop } = scratchSchema(prefix);
  const ledger = await postgresCrashLedger(PG_URL, ledgerSchema, 'test');
  const probe = new pg.Pool({ connectionString: db.url, max: 1 });
  probe.on('error', () => undefined);
  const count = async (sql: string) => {
    try {
      return Number((await probe.query(sql)).rows[0].n);
    } catch {
      return -1;
    }
  };
  const workers: ReturnType<typeof startWorker>[] = [];
  let boss: PgBoss | undefined;
  try {
    await body({
      db,
      ledger,
      workers,
      spawn: (id, env) => {
        const worker = startWorker([db.url, PG_URL, ledgerSchema, id], env);
        workers.push(worker);
        return worker;
      },
      client: async () => {
        boss = new PgBoss({ connectionString: db.url, supervise: false, max: 2 });
        boss.on('error', () => undefined);
        await boss.start();
        return createJobClient(boss);
      },
      completed: () =>
        count(`SELECT count(*) AS n FROM agent_continuations.checkpoint_runs WHERE status = 'completed'`),
      active: () => count(`SELECT count(*) AS n FROM pgboss.job WHERE state = 'active'`),
    });
  } finally {
    for (const worker of workers)
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    await boss?.stop({ graceful: false }).catch(() => undefined);
    await Promise.all([ledger.close(), probe.end()]);
    await drop();
    await db.destroy();
  }
}

it(
  'three README-built workers survive a fast restart and a kill -9 of Postgres under load: none dies, every run completes, each payment once',
  {
    timeout: 180_000,
  },
  () =>
    withFleet('faultledger', async ({ db, ledger, workers, spawn, client: open, completed }) => {
      for (const id of ['w0', 'w1', 'w2']) spawn(id);
      await Promise.all(workers.map((worker) => worker.ready));
      const client = await open();
      for (let i = 0; i < RUNS; i++)
        await client.submitRun('durable', durablePlanInput({ steps: 3 }), { runId: `run-${i}` });

      const payments = async () => (await ledger.report()).payments.length;
      /** Time from the database's return to the next completed run. */
      const recovery = async (fault: () => Promise<void>) => {
        const before = await completed();
        await fault();
        const back = Date.now();
        const resumed = await within(60_000, async () => (await completed()) > before);
        return resumed ? Date.now() - back : undefined;
      };

      expect(await within(60_000, async () => (await payments()) >= 30)).toBe(true);
      const fast = await recovery(() => db.restartFast());
      expect(await within(60_000, async () => (await payments()) >= 70)).toBe(true);
      const crash = await recovery(async () => {
        await db.kill9();
        await sleep(500);
        await db.start();
      });
      const allDone = await within(90_000, async () => (await completed()) === RUNS);
      const done = await completed();
      const deaths = workers.filter(
        (worker) => worker.child.exitCode !== null || worker.child.signalCode !== null,
      );

      const report = await ledger.report();
      const charges = report.attempts.filter((attempt) => attempt.tool === 'charge');
      const keys = new Set(charges.map((attempt) => attempt.key));
      const paid = report.payments.map((payment) => payment.key);
      console.log(
        `faults/postgres-restart: 3 workers, ${RUNS} runs; deaths ${deaths.length}; completed ${done}/${RUNS};`,
        `payments ${paid.length} for ${keys.size} keys (duplicate effects ${paid.length - new Set(paid).size},`,
        `re-executions deduplicated by key ${charges.length - keys.size});`,
        `recovered ${fast ?? 'never'} ms after the fast restart, ${crash ?? 'never'} ms after kill -9`,
      );
      expect(deaths.map((worker) => worker.child.exitCode ?? worker.child.signalCode)).toEqual([]);
      expect(fast).toBeDefined();
      expect(crash).toBeDefined();
      expect(allDone, `${done} of ${RUNS} runs completed`).toBe(true);
      expect(keys.size).toBe(RUNS * 2);
      expect(paid).toHaveLength(RUNS * 2);
      expect(new Set(paid)).toEqual(keys);

      const exits = workers.map(
        (worker) =>
          new Promise<string>((resolve) =>
            worker.child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)),
          ),
      );
      for (const worker of workers) worker.child.kill('SIGTERM');
      expect(await Promise.all(exits)).toEqual(['code 0', 'code 0', 'code 0']);
      console.log(
        `faults/postgres-restart: errors survived per worker: ${workers.map((w) => w.output.join('').match(/errors (\d+)/)?.[1]).join(', ')}`,
      );
    }),
);

it(
  'the jobs of a worker SIGKILLed after fetching them, before beginning any, come back within seconds: the job expiry follows the lease',
  {
    timeout: 90_000,
  },
  () =>
    withFleet('faultfetch', async ({ ledger, spawn, client: open, completed, active }) => {
      const doomed = spawn('doomed', { FAULT_DIE_AFTER_FETCH: '1' });
      await doomed.ready;
      const died = new Promise<number>((resolve) => doomed.child.once('exit', () => resolve(Date.now())));
      const client = await open();
      const runs = 5;
      for (let i = 0; i < runs; i++)
        await client.submitRun('durable', durablePlanInput({ steps: 1 }), { runId: `fetched-${i}` });
      const diedAt = await died;
      const held = await active();
      const rescuer = spawn('rescuer');
      await rescuer.ready;
      const back = await within(30_000, async () => (await completed()) === runs);
      const ms = Date.now() - diedAt;
      const paid = (await ledger.report()).payments.length;
      console.log(
        `faults/killed-after-fetch: ${held} jobs fetched and held by the dead worker; ${await completed()}/${runs} runs completed by another ${ms} ms after its death (lease 2000 ms, job expiry 4 s); ${paid} payments`,
      );
      expect(held).toBeGreaterThan(0);
      expect(back).toBe(true);
      expect(paid).toBe(runs);
    }),
);

it(
  'approvals a worker SIGKILLed after fetching them hold their records meanwhile: the inbox shows none as waiting, and another worker resumes each once',
  {
    timeout: 90_000,
  },
  () =>
    withFleet('faultapprovals', async ({ db, ledger, spawn, client: open }) => {
      const first = spawn('first');
      await first.ready;
      const client = await open();
      const runs = 3;
      for (let i = 0; i < runs; i++)
        await client.submitRun('durable', durablePlanInput({ steps: 1, approvals: [0] }), {
          runId: `ask-${i}`,
        });
      const store = createPostgresStore({ connectionString: db.url });
      const inbox = createRuntime({ agents: {}, store });
      try {
        const waiting = async () => (await store.list({ status: 'suspended' })).items;
        expect(await within(30_000, async () => (await waiting()).length === runs)).toBe(true);
        const approvals = await waiting();
        first.child.kill('SIGTERM');
        await new Promise((resolve) => first.child.once('exit', resolve));

        const doomed = spawn('doomed', { FAULT_DIE_AFTER_FETCH: '1' });
        await doomed.ready;
        const died = new Promise<number>((resolve) => doomed.child.once('exit', () => resolve(Date.now())));
        // A web route's client that knows the store, as the README sets one up.
        const boss = new PgBoss({ connectionString: db.url, supervise: false, max: 2 });
        boss.on('error', () => undefined);
        await boss.start();
        const handOff = await createJobClient(boss, { store });
        for (const item of approvals) {
          const { continuation } = (await store.load(item.id))!;
          await handOff.submitDecisions(item.id, {
            [continuation.pending[0]!.toolCallId]: { type: 'approve', by: 'ann' },
          });
        }
        const diedAt = await died;
        // While the dead worker holds the jobs (they come back at their expiry), no record reads
        // as awaiting approval again.
        const held = (await Promise.all(approvals.map((item) => store.load(item.id)))).map(
          (row) => row?.status,
        );
        const listed = (await inbox.inbox()).items.length;
        await sleep(3_000);
        const later = (await Promise.all(approvals.map((item) => store.load(item.id)))).map(
          (row) => row?.status,
        );
        const listedLater = (await inbox.inbox()).items.length;

        const rescuer = spawn('rescuer');
        await rescuer.ready;
        const done = async () =>
          (await Promise.all(approvals.map((item) => store.load(item.id)))).every(
            (row) => row?.status === 'completed',
          );
        const back = await within(30_000, done);
        const paid = (await ledger.report()).payments.length;
        console.log(
          `faults/approvals-killed-after-fetch: ${runs} approvals handed off; while the dead worker held them: statuses ${held.join(', ')} (3 s later ${later.join(', ')}), inbox ${listed} then ${listedLater}; all resumed by another ${Date.now() - diedAt} ms after its death; ${paid} payments`,
        );
        await boss.stop({ graceful: false });
        expect(held).toEqual(approvals.map(() => 'claimed'));
        expect(later).toEqual(approvals.map(() => 'claimed'));
        expect([listed, listedLater]).toEqual([0, 0]);
        expect(back).toBe(true);
        expect(paid).toBe(runs);
      } finally {
        await store.close();
      }
    }),
);

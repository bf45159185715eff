/**
 * The fault suite, with worker processes: three workers built as the README builds them serve
 * runs on a throwaway Postgres cluster while the test restarts it (`pg_ctl restart -m fast`) and
 * then crashes it (SIGKILL of the postmaster and its backends). No worker may die, every run must
 * complete, and every payment (keyed by its idempotency key, in a ledger on another server) must
 * be made once. The time from the database's return to the next completed run is printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { durablePlanInput } from '@agent-continuations/testing';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { expect, it } from 'vitest';
import { createJobClient } from '../../src/worker/jobs';
import { postgresCrashLedger } from '../crash-ledger';
import { PG_URL, scratchSchema } from '../pg-fixtures';
import { startThrowawayPostgres } from './throwaway-postgres';

const RUNS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startWorker(args: string[]): { child: ChildProcess; ready: Promise<void>; output: string[] } {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@agent-continuations/source',
      '--import',
      'tsx',
      fileURLToPath(new URL('./fault-worker.ts', import.meta.url)),
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
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

it('three README-built workers survive a fast restart and a kill -9 of Postgres under load: none dies, every run completes, each payment once', {
  timeout: 180_000,
}, async () => {
  const db = await startThrowawayPostgres();
  const { schema: ledgerSchema, drop } = scratchSchema('faultledger');
  const ledger = await postgresCrashLedger(PG_URL, ledgerSchema, 'test');
  const probe = new pg.Pool({ connectionString: db.url, max: 1 });
  probe.on('error', () => undefined);
  const workers: ReturnType<typeof startWorker>[] = [];
  let boss: PgBoss | undefined;
  try {
    for (const id of ['w0', 'w1', 'w2']) workers.push(startWorker([db.url, PG_URL, ledgerSchema, id]));
    await Promise.all(workers.map((worker) => worker.ready));
    boss = new PgBoss({ connectionString: db.url, supervise: false, max: 2 });
    boss.on('error', () => undefined);
    await boss.start();
    const client = await createJobClient(boss);
    for (let i = 0; i < RUNS; i++)
      await client.submitRun('durable', durablePlanInput({ steps: 3 }), { runId: `run-${i}` });

    const payments = async () => (await ledger.report()).payments.length;
    const completed = async () => {
      try {
        const { rows } = await probe.query(
          `SELECT count(*) AS n FROM agent_continuations.checkpoint_runs WHERE status = 'completed'`,
        );
        return Number(rows[0].n);
      } catch {
        return -1; // the database is down
      }
    };
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
  } finally {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await boss?.stop({ graceful: false }).catch(() => undefined);
    await Promise.all([ledger.close(), probe.end()]);
    await drop();
    await db.destroy();
  }
});

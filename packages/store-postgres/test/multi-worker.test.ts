import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CheckpointStep } from '@agent-continuations/core';
import { replayCheckpoints } from '@agent-continuations/core/store-kit';
import { durablePlanInput } from '@agent-continuations/testing';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { expect, it } from 'vitest';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { createJobClient } from '../src/worker/jobs';
import { postgresCrashLedger } from './crash-ledger';
import { PG_URL, scratchSchema } from './pg-fixtures';
import { openWorkerStore } from './worker-store';

const RUNS = 200;
const PLAN = { steps: 4, approvals: [0, 2] };

function start(
  script: string,
  args: string[],
): { child: ChildProcess; ready: Promise<void>; exit: Promise<string> } {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@agent-continuations/source',
      '--import',
      'tsx',
      fileURLToPath(new URL(script, import.meta.url)),
      ...args,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const ready = new Promise<void>((resolve) =>
    child.stdout!.on('data', (chunk) => String(chunk).includes('ready') && resolve()),
  );
  const exit = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? `code ${code}`)),
  );
  return { child, ready, exit };
}

it('three worker processes finish 200 runs that each suspend twice, through a SIGKILL and a SIGTERM, running each payment once', {
  timeout: 120_000,
}, async () => {
  const { schema, bossSchema, drop } = scratchSchema('fleet');
  const db = new pg.Pool({ connectionString: PG_URL, max: 2 });
  const log = createPostgresCheckpointLog({ connectionString: PG_URL, schema });
  await log.status('none'); // creates the tables before the workers race for them
  const ledger = await postgresCrashLedger(PG_URL, schema, 'test');
  const store = await openWorkerStore(PG_URL, schema);
  const boss = await new PgBoss({
    connectionString: PG_URL,
    schema: bossSchema,
    supervise: false,
    max: 2,
  }).start();
  const client = await createJobClient(boss, { expireInSeconds: 5, retryDelay: 1 });
  const count = async (sql: string) => Number((await db.query(sql)).rows[0].count);
  try {
    const workers = ['w0', 'w1', 'w2'].map((id) => start('./worker-process.ts', [PG_URL, schema, id]));
    await Promise.all(workers.map((worker) => worker.ready));
    const runIds = await Promise.all(
      Array.from({ length: RUNS }, (_, i) =>
        client.submitRun('durable', durablePlanInput(PLAN), { runId: `fleet-${i}` }),
      ),
    );
    const decider = start('./worker-decider.ts', [PG_URL, schema]);
    await decider.ready;

    let killed = false;
    let terminated = false;
    const deadline = Date.now() + 100_000;
    for (;;) {
      const paid = await count(`SELECT count(*) FROM ${schema}.payments`);
      // Each signal lands inside the worker's next charge call (see worker-process.ts).
      if (!killed && paid >= 120) {
        workers[0]!.child.stdin!.write('kill\n');
        killed = true;
      }
      if (!terminated && paid >= 200) {
        workers[1]!.child.stdin!.write('term\n');
        terminated = true;
      }
      const done = await count(`SELECT count(*) FROM ${schema}.checkpoint_runs WHERE status = 'completed'`);
      if (done === RUNS) break;
      if (Date.now() > deadline) throw new Error(`only ${done} of ${RUNS} runs completed (${paid} payments)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const signalled = await Promise.race([
      Promise.all([workers[0]!.exit, workers[1]!.exit]),
      new Promise<undefined>((resolve) => setTimeout(resolve, 20_000, undefined)),
    ]);
    if (!signalled)
      throw new Error('a worker took no charge after its signal was armed, so it never stopped');
    // Nothing is left waiting: continuations the dead worker held are marked resumed by the others.
    const waitingDeadline = Date.now() + 30_000;
    for (;;) {
      const page = await store.list({ status: ['suspended', 'claimed'], limit: 10 });
      if (page.items.length === 0) break;
      if (Date.now() > waitingDeadline)
        throw new Error(`continuations still waiting: ${JSON.stringify(page.items)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    decider.child.kill('SIGTERM');
    workers[2]!.child.kill('SIGTERM');
    const exits = await Promise.all([...workers.map((worker) => worker.exit), decider.exit]);
    expect(exits).toEqual(['SIGKILL', 'code 0', 'code 0', 'code 0']);

    const ledgerReport = await ledger.report();
    const chargeKeys = new Set(ledgerReport.attempts.filter((a) => a.tool === 'charge').map((a) => a.key));
    const payments = ledgerReport.payments.map((payment) => payment.key);
    expect(chargeKeys.size).toBe(RUNS * 2);
    expect(new Set(payments)).toEqual(chargeKeys);
    expect(payments).toHaveLength(RUNS * 2);

    let approvalSuspensions = 0;
    let predicateSuspensions = 0;
    for (const runId of runIds) {
      const entries = await log.read(runId);
      const replay = replayCheckpoints(entries);
      expect(replay.status).toBe('completed');
      expect(replay.output).toBe('completed 4 steps');
      expect(replay.continuation!.decisions).toHaveLength(2);
      const suspensions = entries.filter((entry): entry is CheckpointStep => entry.type === 'suspend');
      const byActions = suspensions.filter((entry) => entry.suspension?.suspendedBy.type === 'actions');
      expect(byActions).toHaveLength(2);
      approvalSuspensions += byActions.length;
      predicateSuspensions += suspensions.length - byActions.length;
    }
    // The charge each signal interrupted: the killed one ran again elsewhere (and paid once, above).
    const interrupted = (owner: string) => ledgerReport.kills.find((kill) => kill.owner === owner)!.key;
    const attemptsOf = (key: string) =>
      ledgerReport.attempts.filter((a) => a.key === key).map((a) => a.owner);
    const killedIn = attemptsOf(interrupted('w0'));
    expect(killedIn).toHaveLength(2);
    expect(killedIn[0]).toBe('w0');
    // The stopping worker finishes the call it is in (a call it recovered from w0, perhaps); none runs it after.
    expect(attemptsOf(interrupted('w1')).at(-1)).toBe('w1');
    expect(predicateSuspensions).toBeGreaterThan(0);
    const attempts = (tool: string) => ledgerReport.attempts.filter((a) => a.tool === tool).length;
    console.log(
      `multi-worker: ${RUNS} runs, ${approvalSuspensions} approval suspensions, ${predicateSuspensions} shutdown suspensions;`,
      `charge ${attempts('charge')} executions for ${payments.length} payments; notify ${attempts('notify')} executions for ${RUNS * 2} calls`,
    );
  } finally {
    await boss.stop({ graceful: false });
    await Promise.all([ledger.close(), log.close(), store.close?.(), db.end()]);
    await drop();
  }
});

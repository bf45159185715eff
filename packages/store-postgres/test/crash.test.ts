/**
 * SIGKILLed worker processes over one Postgres schema: no recorded step is lost, every run
 * completes, and each payment happens once. The nested scenario kills workers inside the child of a
 * 2-level agent (approvals in the child): it is recovered inside the same child run.
 */
import { fileURLToPath } from 'node:url';
import {
  checkCrashReport,
  checkStoreAfterCrashes,
  runCrashScenario,
  spawnTypeScript,
} from '@agent-continuations/testing';
import pg from 'pg';
import { expect, it } from 'vitest';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { createPostgresStore } from '../src/postgres-store';
import { postgresCrashLedger } from './crash-ledger';
import { PG_URL, scratchSchema } from './pg-fixtures';

/** Six kills at seeded points among `runs` runs of 6 steps, in a scratch schema of their own. */
async function crashScenario(
  name: string,
  runs: number,
  seed: number,
  maxKillAt: number,
  extra: string[] = [],
  after?: (schema: string) => Promise<void>,
) {
  const { schema, drop } = scratchSchema(`crash${name}`);
  const plan = { runs, steps: 6 };
  const log = createPostgresCheckpointLog({ connectionString: PG_URL, schema });
  const ledger = await postgresCrashLedger(PG_URL, schema, 'test');
  const worker = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
  try {
    const report = await runCrashScenario({
      log,
      ledger,
      runs,
      kills: 6,
      seed,
      maxKillAt,
      spawnWorker: (killAt, index) =>
        spawnTypeScript(worker, [
          PG_URL,
          schema,
          `worker-${index}`,
          String(plan.runs),
          String(plan.steps),
          killAt === undefined ? '-' : String(killAt),
          ...extra,
        ]),
    });
    const { violations, counts } = checkCrashReport(report, plan);
    console.log(
      `${name} crash test (postgres): kills`,
      report.ledger.kills.map((kill) => `${kill.point} ${kill.key}`),
      'counts',
      counts,
    );
    await after?.(schema);
    return { report, violations, counts };
  } finally {
    await ledger.close();
    await log.close();
    await drop();
  }
}

it('SIGKILLed workers lose no recorded step; runs complete; payments stay exactly-once', {
  timeout: 90_000,
}, async () => {
  const { report, violations, counts } = await crashScenario('flat', 24, 16, 40);
  expect(violations).toEqual([]);
  expect(report.killed).toBe(6);
  expect(counts.charge.effects).toBe(counts.charge.calls);
});

it('nested: SIGKILLed workers inside a sub-agent are recovered inside the same child run; payments exactly-once', {
  timeout: 90_000,
}, async () => {
  const { report, violations, counts } = await crashScenario('nested', 12, 21, 30, ['nested', '0,4']);
  expect(violations).toEqual([]);
  expect(report.killed).toBe(6);
  expect(report.runs.every((run) => run.childRunIds.length === 1)).toBe(true);
  const childRunIds = new Set(report.runs.flatMap((run) => run.childRunIds));
  expect(report.ledger.kills.some((kill) => childRunIds.has(kill.key.split(/[@:]/)[0]!))).toBe(true);
  expect(counts.charge.effects).toBe(counts.charge.calls);
});

// Issue 21 item 11: a person approves with `resumeStored(..., { log })` (store and log on one
// pool), is killed, and another process finishes the run with `recoverRun`: the record the dead
// resume held must not stay listed as waiting.
it('stored, nested: SIGKILLed resumeStored finished by recoverRun and recover leaves no phantom approval', {
  timeout: 120_000,
}, async () => {
  let after: Awaited<ReturnType<typeof checkStoreAfterCrashes>> | undefined;
  const { report, violations, counts } = await crashScenario(
    'stored',
    12,
    41,
    30,
    ['nested', '0,4', 'stored'],
    async (schema) => {
      const pool = new pg.Pool({ connectionString: PG_URL });
      try {
        const store = createPostgresStore({ pool, schema });
        const log = createPostgresCheckpointLog({ pool, schema });
        after = await checkStoreAfterCrashes(store, log, { runs: 12, nested: true });
      } finally {
        await pool.end();
      }
    },
  );
  expect(violations).toEqual([]);
  expect(report.killed).toBe(6);
  expect(counts.charge.effects).toBe(counts.charge.calls);
  expect(after).toEqual({ disagreements: [], live: 0 });
});

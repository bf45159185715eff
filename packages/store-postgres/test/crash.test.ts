/**
 * SIGKILLed worker processes over one Postgres schema: no recorded step is lost, every run
 * completes, and each payment happens once. The nested scenario kills workers inside the child of a
 * 2-level agent (approvals in the child): it is recovered inside the same child run.
 */
import { fileURLToPath } from 'node:url';
import { checkCrashReport, runCrashScenario, spawnTypeScript } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { postgresCrashLedger } from './crash-ledger';
import { PG_URL, scratchSchema } from './pg-fixtures';

/** Six kills at seeded points among `runs` runs of 6 steps, in a scratch schema of their own. */
async function crashScenario(
  name: string,
  runs: number,
  seed: number,
  maxKillAt: number,
  extra: string[] = [],
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

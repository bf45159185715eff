/**
 * Durable sub-agents on Postgres (issue 10 item 6): the crash kit's nested variant, approvals in the child.
 */
import { fileURLToPath } from 'node:url';
import { checkCrashReport, runCrashScenario, spawnTypeScript } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { postgresCrashLedger } from './crash-ledger';
import { PG_URL, scratchSchema } from './pg-fixtures';

it('nested: SIGKILLed workers inside a sub-agent are recovered inside the same child run; payments exactly-once', {
  timeout: 90_000,
}, async () => {
  const { schema, drop } = scratchSchema('crashnest');
  const plan = { runs: 12, steps: 6 };
  const log = createPostgresCheckpointLog({ connectionString: PG_URL, schema });
  const ledger = await postgresCrashLedger(PG_URL, schema, 'test');
  const worker = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
  try {
    const report = await runCrashScenario({
      log,
      ledger,
      runs: plan.runs,
      kills: 6,
      seed: 21,
      maxKillAt: 30,
      spawnWorker: (killAt, index) =>
        spawnTypeScript(worker, [
          PG_URL,
          schema,
          `worker-${index}`,
          String(plan.runs),
          String(plan.steps),
          killAt === undefined ? '-' : String(killAt),
          'nested',
          '0,4',
        ]),
    });
    const { violations, counts } = checkCrashReport(report, plan);
    console.log(
      'nested crash test (postgres): kills',
      report.ledger.kills.map((kill) => `${kill.point} ${kill.key}`),
      'counts',
      counts,
    );
    expect(violations).toEqual([]);
    expect(report.killed).toBe(6);
    expect(report.runs.every((run) => run.childRunIds.length === 1)).toBe(true);
    const childRunIds = new Set(report.runs.flatMap((run) => run.childRunIds));
    expect(report.ledger.kills.some((kill) => childRunIds.has(kill.key.split(/[@:]/)[0]!))).toBe(true);
    expect(counts.charge.effects).toBe(counts.charge.calls);
  } finally {
    await ledger.close();
    await log.close();
    await drop();
  }
});

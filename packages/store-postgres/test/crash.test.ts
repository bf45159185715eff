import { fileURLToPath } from 'node:url';
import { checkCrashReport, runCrashScenario, spawnTypeScript } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { postgresCrashLedger } from './crash-ledger';
import { PG_URL, scratchSchema } from './pg-fixtures';

it('SIGKILLed workers lose no recorded step; runs complete; payments stay exactly-once', {
  timeout: 90_000,
}, async () => {
  const { schema, drop } = scratchSchema('crash');
  const plan = { runs: 24, steps: 6 };
  const log = createPostgresCheckpointLog({ connectionString: PG_URL, schema });
  const ledger = await postgresCrashLedger(PG_URL, schema, 'test');
  const worker = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
  try {
    const report = await runCrashScenario({
      log,
      ledger,
      runs: plan.runs,
      kills: 6,
      seed: 16,
      maxKillAt: 40,
      spawnWorker: (killAt, index) =>
        spawnTypeScript(worker, [
          PG_URL,
          schema,
          `worker-${index}`,
          String(plan.runs),
          String(plan.steps),
          killAt === undefined ? '-' : String(killAt),
        ]),
    });
    const { violations, counts } = checkCrashReport(report, plan);
    console.log(
      'crash test (postgres): kills',
      report.ledger.kills.map((kill) => kill.point),
      'counts',
      counts,
    );
    expect(violations).toEqual([]);
    expect(report.killed).toBe(6);
    expect(counts.charge.effects).toBe(counts.charge.calls);
  } finally {
    await ledger.close();
    await log.close();
    await drop();
  }
});

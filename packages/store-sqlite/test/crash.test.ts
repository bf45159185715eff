import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCrashReport, runCrashScenario, spawnTypeScript } from '@agent-continuations/testing';
import { afterAll, expect, it } from 'vitest';
import { createSqliteCheckpointLog } from '../src/checkpoints';
import { sqliteCrashLedger } from './crash-ledger';

const dir = mkdtempSync(join(tmpdir(), 'ac-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('SIGKILLed workers lose no recorded step; runs complete; payments stay exactly-once', {
  timeout: 90_000,
}, async () => {
  const file = join(dir, 'crash.db');
  const plan = { runs: 24, steps: 6 };
  const log = createSqliteCheckpointLog({ database: file });
  const ledger = sqliteCrashLedger(file, 'test');
  const worker = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
  const report = await runCrashScenario({
    log,
    ledger,
    runs: plan.runs,
    kills: 6,
    seed: 6,
    maxKillAt: 40,
    spawnWorker: (killAt, index) =>
      spawnTypeScript(worker, [
        file,
        `worker-${index}`,
        String(plan.runs),
        String(plan.steps),
        killAt === undefined ? '-' : String(killAt),
      ]),
  });
  const { violations, counts } = checkCrashReport(report, plan);
  console.log(
    'crash test (sqlite): kills',
    report.ledger.kills.map((kill) => kill.point),
    'counts',
    counts,
  );
  expect(violations).toEqual([]);
  expect(report.killed).toBe(6);
  expect(counts.charge.effects).toBe(counts.charge.calls);
  ledger.close();
  await log.close();
});

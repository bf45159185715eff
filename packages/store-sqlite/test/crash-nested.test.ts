/**
 * Durable sub-agents (issue 10 item 6): SIGKILLs inside the child of a 2-level agent (approvals in
 * the child) are recovered inside the child from its last recorded step, under the same child run
 * id and idempotency keys; each tool runs once (a crash between a side effect and the recording of
 * its result aside, with the same key).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCrashReport, runCrashScenario, spawnTypeScript } from '@agent-continuations/testing';
import { afterAll, expect, it } from 'vitest';
import { createSqliteCheckpointLog } from '../src/checkpoints';
import { sqliteCrashLedger } from './crash-ledger';

const dir = mkdtempSync(join(tmpdir(), 'ac-crash-nested-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('SIGKILLed workers inside a sub-agent: recovered inside the child, same run id and keys, payments exactly-once', {
  timeout: 120_000,
}, async () => {
  const file = join(dir, 'crash.db');
  const plan = { runs: 12, steps: 6 };
  const log = createSqliteCheckpointLog({ database: file });
  const ledger = sqliteCrashLedger(file, 'test');
  const worker = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
  const report = await runCrashScenario({
    log,
    ledger,
    runs: plan.runs,
    kills: 6,
    seed: 11,
    maxKillAt: 30,
    spawnWorker: (killAt, index) =>
      spawnTypeScript(worker, [
        file,
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
    'nested crash test (sqlite): kills',
    report.ledger.kills.map((kill) => `${kill.point} ${kill.key}`),
    'counts',
    counts,
  );
  expect(violations).toEqual([]);
  expect(report.killed).toBe(6);
  // Every run's child kept one run id across the kills and its recovery.
  expect(report.runs.every((run) => run.childRunIds.length === 1)).toBe(true);
  // The kills landed inside the children: at their model calls and tools, under their run ids.
  const childRunIds = new Set(report.runs.flatMap((run) => run.childRunIds));
  const inChild = report.ledger.kills.filter((kill) => childRunIds.has(kill.key.split(/[@:]/)[0]!));
  expect(inChild.length).toBeGreaterThan(0);
  expect(counts.charge.effects).toBe(counts.charge.calls);
  ledger.close();
  await log.close();
});

/**
 * SIGKILLed worker processes over one SQLite file: no recorded step is lost, every run completes,
 * and each payment happens once (a crash between a side effect and the recording of its result
 * aside, with the same key). The nested scenario kills workers inside the child of a 2-level agent
 * (approvals in the child): it is recovered inside the child from its last recorded step, under the
 * same child run id and idempotency keys.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkCrashReport,
  checkStoreAfterCrashes,
  runCrashScenario,
  spawnTypeScript,
} from '@agent-continuations/testing';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { createSqliteCheckpointLog } from '../src/checkpoints';
import { createSqliteStore } from '../src/sqlite-store';
import { sqliteCrashLedger } from './crash-ledger';

const dir = mkdtempSync(join(tmpdir(), 'ac-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Six kills at seeded points among `runs` runs of 6 steps, in a database file of their own. */
async function crashScenario(
  name: string,
  runs: number,
  seed: number,
  maxKillAt: number,
  extra: string[] = [],
) {
  const file = join(dir, `${name}.db`);
  const plan = { runs, steps: 6 };
  const log = createSqliteCheckpointLog({ database: file });
  const ledger = sqliteCrashLedger(file, 'test');
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
          file,
          `worker-${index}`,
          String(plan.runs),
          String(plan.steps),
          killAt === undefined ? '-' : String(killAt),
          ...extra,
        ]),
    });
    const { violations, counts } = checkCrashReport(report, plan);
    console.log(
      `${name} crash test (sqlite): kills`,
      report.ledger.kills.map((kill) => `${kill.point} ${kill.key}`),
      'counts',
      counts,
    );
    return { report, violations, counts };
  } finally {
    ledger.close();
    await log.close();
  }
}

it('SIGKILLed workers lose no recorded step; runs complete; payments stay exactly-once', {
  timeout: 90_000,
}, async () => {
  const { report, violations, counts } = await crashScenario('flat', 24, 6, 40);
  expect(violations).toEqual([]);
  expect(report.killed).toBe(6);
  expect(counts.charge.effects).toBe(counts.charge.calls);
});

it('SIGKILLed workers inside a sub-agent: recovered inside the child, same run id and keys, payments exactly-once', {
  timeout: 120_000,
}, async () => {
  const { report, violations, counts } = await crashScenario('nested', 12, 11, 30, ['nested', '0,4']);
  expect(violations).toEqual([]);
  expect(report.killed).toBe(6);
  // Every run's child kept one run id across the kills and its recovery.
  expect(report.runs.every((run) => run.childRunIds.length === 1)).toBe(true);
  // The kills landed inside the children: at their model calls and tools, under their run ids.
  const childRunIds = new Set(report.runs.flatMap((run) => run.childRunIds));
  const inChild = report.ledger.kills.filter((kill) => childRunIds.has(kill.key.split(/[@:]/)[0]!));
  expect(inChild.length).toBeGreaterThan(0);
  expect(counts.charge.effects).toBe(counts.charge.calls);
});

// Issue 21 item 11: a person approves with `resumeStored(..., { log })` (store and log on one
// connection), is killed, and another process finishes the run with `recoverRun`: the record the
// dead resume held must not stay listed as waiting.
it('stored, nested: SIGKILLed resumeStored finished by recoverRun and recover leaves no phantom approval', {
  timeout: 120_000,
}, async () => {
  const { report, violations, counts } = await crashScenario('stored', 12, 31, 30, [
    'nested',
    '0,4',
    'stored',
  ]);
  expect(violations).toEqual([]);
  expect(report.killed).toBe(6);
  expect(counts.charge.effects).toBe(counts.charge.calls);
  const database = new Database(join(dir, 'stored.db'));
  const store = createSqliteStore({ database });
  const log = createSqliteCheckpointLog({ database });
  try {
    const after = await checkStoreAfterCrashes(store, log, { runs: 12, nested: true });
    expect(after).toEqual({ disagreements: [], live: 0 });
  } finally {
    await log.close();
    database.close();
  }
});

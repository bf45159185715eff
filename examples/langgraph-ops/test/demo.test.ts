import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { expect, it, vi } from 'vitest';

// Each step is a new Node process that compiles TypeScript on start: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const demo = join(import.meta.dirname, '..', 'src', 'demo.ts');
const node = (dir: string, ...args: string[]) =>
  spawnSync(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', 'tsx', demo, ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, OPS_DEMO_DIR: dir },
    },
  );

it('suspends on a nested approval, then approves in two new processes through the SQLite store, running every tool once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'langgraph-ops-'));
  const run = node(dir);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const pids = [
    ...new Set(
      run.stdout
        .split('\n')
        .map((line) => /^\[process (\d+)\]/.exec(line)?.[1])
        .filter(Boolean),
    ),
  ];
  expect(pids).toHaveLength(3);
  const [starter, firstApprover, secondApprover] = pids;
  expect(run.stdout).toContain(
    `[process ${starter}] pending approval: ops.diagnostics > diagnostics.capture_heap_dump {"service":"checkout"}`,
  );
  expect(run.stdout).toContain(
    `[process ${firstApprover}] pending approval: ops.restart_service {"service":"checkout","reason":"Memory leak: checkout: OOMKilled 3 times in 10 minutes; heap dump saved to s3://dumps/checkout.heap."}`,
  );
  expect(run.stdout).toContain(
    `[process ${secondApprover}] Final answer: Restarted checkout. checkout restarted at generation 42`,
  );
  // Each tool ran once, in the process that settled its call.
  const ranIn = {
    check_health: starter,
    read_logs: starter,
    capture_heap_dump: firstApprover,
    restart_service: secondApprover,
  };
  for (const [tool, pid] of Object.entries(ranIn)) {
    expect(run.stdout).toContain(`${tool} executions: 1 (first run in process ${pid})`);
  }

  // A late approver finds nothing waiting, and runs nothing.
  const late = node(dir, 'approve');
  expect(late.status).toBe(0);
  expect(late.stdout).toContain('nothing waits for approval.');

  // The store and the operations log share the file: both continuations are resumed, and the log
  // holds one row per tool call, keyed by the core's idempotency key (nested calls under their path).
  const store = createSqliteStore({ path: join(dir, 'ops.sqlite') });
  try {
    const statuses = (await store.list()).items.map((item) => item.status);
    expect(statuses).toEqual(['completed', 'completed']);
    const operations = store.database
      .prepare('SELECT idempotency_key AS key, tool, runs FROM operations ORDER BY rowid')
      .all() as Array<{ key: string; tool: string; runs: number }>;
    const runId = operations[0]!.key.split(':')[0];
    expect(operations).toEqual([
      { key: `${runId}:call_1_0`, tool: 'check_health', runs: 1 },
      { key: `${runId}/call_1_1:call_1_0`, tool: 'read_logs', runs: 1 },
      { key: `${runId}/call_1_1:call_1_1`, tool: 'capture_heap_dump', runs: 1 },
      { key: `${runId}:call_2_0`, tool: 'restart_service', runs: 1 },
    ]);
  } finally {
    await store.close();
  }
});

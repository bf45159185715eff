import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const demo = join(import.meta.dirname, '..', 'src', 'demo.ts');

it('suspends on a nested approval, then approves in two new processes, running every tool once', () => {
  const run = spawnSync(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', 'tsx', demo],
    {
      encoding: 'utf8',
    },
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const pids = new Set(
    run.stdout
      .split('\n')
      .map((line) => /^\[process (\d+)\]/.exec(line)?.[1])
      .filter(Boolean),
  );
  expect(pids.size).toBe(3);
  expect(run.stdout).toContain(
    'pending approval: ops.diagnostics > diagnostics.capture_heap_dump {"service":"checkout"}',
  );
  expect(run.stdout).toContain(
    'pending approval: ops.restart_service {"service":"checkout","reason":"Memory leak: checkout: OOMKilled 3 times in 10 minutes; heap dump saved to s3://dumps/checkout.heap."}',
  );
  expect(run.stdout).toContain('Final answer: Restarted checkout. checkout restarted at generation 42');
  for (const tool of ['check_health', 'read_logs', 'capture_heap_dump', 'restart_service']) {
    expect(run.stdout).toContain(`${tool} executions: 1`);
  }
});

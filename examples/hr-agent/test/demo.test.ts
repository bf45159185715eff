import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';

// Each step is a new Node process that compiles TypeScript on start: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const demo = join(import.meta.dirname, '..', 'src', 'demo.ts');

it('suspends in one process and is approved and completed in another, updating the salary once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hr-demo-'));
  const run = spawnSync(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', 'tsx', demo],
    {
      encoding: 'utf8',
      // The scripted server, never a real endpoint, in tests.
      env: { ...process.env, HR_DEMO_DIR: dir, OPENAI_API_KEY: '' },
    },
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const lines = run.stdout.trim().split('\n');
  const pids = new Set(lines.map((line) => /^\[process (\d+)\]/.exec(line)?.[1]).filter(Boolean));
  expect(pids.size).toBe(2);
  expect(run.stdout).toContain(
    'pending approval: hr.payroll > payroll.benefits > benefits.update_salary {"employeeId":"E-42","salary":55000}',
  );
  expect(run.stdout).toContain(
    'Final answer: Done. Payroll updated. Salary updated: {"employeeId":"E-42","salary":55000,"applied":1}',
  );
  expect(run.stdout).toContain('update_salary executions: 1');
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';

// Each step is a new Node process that compiles TypeScript on start: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const demo = join(import.meta.dirname, '..', 'src', 'demo.ts');
const runDemo = (dir: string, ...args: string[]) =>
  spawnSync(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', 'tsx', demo, ...args],
    // The scripted server, never a real endpoint, in tests.
    { encoding: 'utf8', env: { ...process.env, DESK_DEMO_DIR: dir, OPENAI_API_KEY: '' } },
  );

it('waits in the billing agent after the handoff, and a second process approves the refund, which runs once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agents-desk-'));
  const run = runDemo(dir);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const pids = [...new Set([...run.stdout.matchAll(/^\[process (\d+)\]/gm)].map((match) => match[1]!))];
  expect(pids).toHaveLength(2);
  const [intake, approve] = pids;
  expect(run.stdout).toContain(
    `[process ${intake}] waiting in agent "billing": refund {"orderId":"O-1001","amount":49}. Exiting.`,
  );
  expect(run.stdout).toContain(
    `[process ${approve}] approving refund {"orderId":"O-1001","amount":49} (id call_1_0/call_2_0)`,
  );
  expect(run.stdout).toContain('Final answer: Refund done: {"refunded":49,"orderId":"O-1001"}.');
  const refunds = () => readFileSync(join(dir, 'refunds.log'), 'utf8').trim().split('\n');
  expect(refunds()).toEqual([JSON.stringify({ orderId: 'O-1001', amount: 49, pid: Number(approve) })]);

  // A later approver finds nothing waiting, and the refund does not run again.
  const again = runDemo(dir, 'approve');
  expect(again.stderr).toBe('');
  expect(again.stdout).toMatch(/^\[process \d+\] nothing waits for approval\.$/m);
  expect(refunds()).toHaveLength(1);
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const demo = join(import.meta.dirname, '..', 'src', 'demo.ts');

it('suspends in the AI SDK worker and is finished by the LangGraph worker in another process, refunding once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cross-demo-'));
  const run = spawnSync(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', 'tsx', demo],
    {
      encoding: 'utf8',
      // The scripted server, never a real endpoint, in tests.
      env: { ...process.env, CROSS_DEMO_DIR: dir, OPENAI_API_KEY: '' },
    },
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const pids = [...run.stdout.matchAll(/^\[process (\d+)\]/gm)].map((match) => match[1]);
  const [intake, finish] = [...new Set(pids)];
  expect(new Set(pids).size).toBe(2);
  expect(run.stdout).toContain(`[process ${intake}] AI SDK worker: suspended with 1 action(s) waiting`);
  expect(run.stdout).toContain(
    `[process ${finish}] LangGraph worker: picked up a continuation made by "vercel-ai".`,
  );
  expect(run.stdout).toContain(
    `[process ${finish}] pending approval: support-triage.issue_refund {"orderId":"O-1001","amount":49}  (id call_2_0)`,
  );
  expect(run.stdout).toContain(
    'Final answer: Refund done: {"refunded":49,"orderId":"O-1001","reference":"R-1"}. Ticket T-42 is tagged "refund".',
  );
  const executions = readFileSync(join(dir, 'executions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { tool: string; pid: number; framework: string });
  expect(executions.map(({ tool, framework, pid }) => [tool, framework, String(pid)])).toEqual([
    ['lookup_order', 'ai-sdk', intake],
    ['tag_ticket', 'ai-sdk', intake],
    ['issue_refund', 'langgraph', finish],
  ]);
  expect(Object.values(JSON.parse(readFileSync(join(dir, 'refunds.json'), 'utf8')))).toEqual([
    { orderId: 'O-1001', amount: 49 },
  ]);
});

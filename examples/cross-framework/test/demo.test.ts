import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { expect, it, vi } from 'vitest';
import { supportDesk } from '../src/desk';

// Each step is a new Node process that compiles TypeScript on start: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const demo = join(import.meta.dirname, '..', 'src', 'demo.ts');
const runDemo = (dir: string, ...args: string[]) =>
  spawnSync(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', 'tsx', demo, ...args],
    {
      encoding: 'utf8',
      // The scripted server, never a real endpoint, in tests.
      env: { ...process.env, CROSS_DEMO_DIR: dir, OPENAI_API_KEY: '' },
    },
  );

/** What the demo's SQLite file holds: the desk's tables and the store's continuations. */
async function inspect(dir: string) {
  const store = createSqliteStore({ path: join(dir, 'support.sqlite') });
  try {
    const desk = supportDesk(store.database, 'test');
    return {
      executions: desk.executions().map(({ tool, framework, pid }) => [tool, framework, String(pid)]),
      refunds: desk.refunds(),
      continuations: (await store.list({})).items.map(({ status, agentName, metadata }) => ({
        status,
        agentName,
        metadata,
      })),
    };
  } finally {
    await store.close();
  }
}

it('suspends in the AI SDK worker and is finished by the LangGraph worker in another process, refunding once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cross-demo-'));
  const run = runDemo(dir);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const pids = [...run.stdout.matchAll(/^\[process (\d+)\]/gm)].map((match) => match[1]!);
  const [intake, finish] = [...new Set(pids)];
  expect(new Set(pids).size).toBe(2);
  expect(run.stdout).toMatch(
    new RegExp(
      `\\[process ${intake}\\] AI SDK worker: suspended with 1 action\\(s\\) waiting; continuation [0-9a-f-]{36} saved in the SQLite store`,
    ),
  );
  expect(run.stdout).toContain(
    `[process ${finish}] LangGraph worker: picked up a continuation made by "vercel-ai".`,
  );
  expect(run.stdout).toContain(
    `[process ${finish}] pending approval: support-triage.issue_refund {"orderId":"O-1001","amount":49}  (id call_2_0)`,
  );
  expect(run.stdout).toContain(
    'Final answer: Refund done: {"refunded":49,"orderId":"O-1001","reference":"R-1"}. Ticket T-42 is tagged "refund".',
  );
  expect(run.stdout).toContain('refunds issued: 1');

  const after = await inspect(dir);
  expect(after).toEqual({
    executions: [
      ['lookup_order', 'ai-sdk', intake],
      ['tag_ticket', 'ai-sdk', intake],
      ['issue_refund', 'langgraph', finish],
    ],
    // Keyed by the core's idempotency key (run id + tool-call id), in whichever framework it runs.
    refunds: [
      {
        key: expect.stringMatching(/^[0-9a-f-]{36}:call_2_0$/),
        orderId: 'O-1001',
        amount: 49,
        reference: 'R-1',
      },
    ],
    continuations: [
      { status: 'completed', agentName: 'support-triage', metadata: { ticket: 'T-42', queue: 'refunds' } },
    ],
  });

  // A second LangGraph worker finds nothing waiting in the store, and nothing runs again.
  const again = runDemo(dir, 'finish');
  expect(again.stderr).toBe('');
  expect(again.status).toBe(0);
  expect(again.stdout).toMatch(/^\[process \d+\] nothing waits for approval\.$/m);
  expect(await inspect(dir)).toEqual(after);
});

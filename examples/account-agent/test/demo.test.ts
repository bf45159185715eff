import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { describe, expect, it, vi } from 'vitest';

// Each step is a new Node process that compiles TypeScript on start: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const demo = join(import.meta.dirname, '..', 'src', 'demo.ts');
const nodeArgs = (...args: string[]) => [
  '--conditions=@agent-continuations/source',
  '--import',
  'tsx',
  demo,
  ...args,
];

function demoEnv(dir: string, api: 'chat' | 'responses' = 'chat'): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ACCOUNT_DEMO_DIR: dir, ACCOUNT_DEMO_API: api };
  // The scripted server, never a real endpoint, in tests.
  delete env.OPENAI_API_KEY;
  return env;
}

function runDemo(dir: string, api: 'chat' | 'responses', ...args: string[]) {
  return spawnSync(process.execPath, nodeArgs(...args), { encoding: 'utf8', env: demoEnv(dir, api) });
}

/** Start a demo step without waiting for it, so that two of them overlap. */
function startDemo(
  dir: string,
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(...args), { env: demoEnv(dir) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** What the demo's SQLite file holds: the bank's rows and the store's continuations. */
async function inspect(dir: string) {
  const store = createSqliteStore({ path: join(dir, 'accounts.sqlite') });
  try {
    const { database } = store;
    return {
      balances: Object.fromEntries(
        database
          .prepare<[], { id: string; balance: number }>('SELECT id, balance FROM accounts ORDER BY id')
          .all()
          .map(({ id, balance }) => [id, balance]),
      ),
      transfers: database
        .prepare('SELECT idempotency_key AS key, receipt, from_account, to_account, amount FROM transfers')
        .all(),
      continuations: (await store.list({})).items.map(({ status, agentName }) => ({ status, agentName })),
    };
  } finally {
    await store.close();
  }
}

describe.each(['chat', 'responses'] as const)('account demo over the %s API', (api) => {
  it('suspends for approval in one process and finishes in another, on the approve and the reject path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'account-demo-'));
    const run = runDemo(dir, api);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const [approvePath, rejectPath] = run.stdout.split('--- reject path ---') as [string, string];
    const pids = (text: string) =>
      new Set([...text.matchAll(/^\[process (\d+)\]/gm)].map((match) => match[1]));
    expect(pids(approvePath).size).toBe(2);
    expect(pids(rejectPath).size).toBe(2);

    expect(approvePath).toMatch(/continuation [0-9a-f-]{36} saved in the SQLite store/);
    expect(approvePath).toContain('pending approval: transfer {"from":"ACC-1","to":"ACC-2","amount":50}');
    expect(approvePath).toContain(
      'Final answer: Transferred 50 EUR to ACC-2 (receipt T-1); ACC-1 now holds 70 EUR.',
    );
    expect(approvePath).toContain('transfers executed: 1');

    expect(rejectPath).toContain('pending approval: transfer {"from":"ACC-1","to":"ACC-2","amount":50}');
    expect(rejectPath).toContain(
      'Final answer: The transfer was not made. A human rejected this tool call: Transfers to ACC-2 are on hold.',
    );
    expect(rejectPath).toContain('transfers executed: 0');

    // The file is left as the reject path made it: the bank untouched, the continuation resumed.
    expect(await inspect(dir)).toEqual({
      balances: { 'ACC-1': 120, 'ACC-2': 10 },
      transfers: [],
      continuations: [{ status: 'completed', agentName: 'accounts' }],
    });
  });
});

it('two clicks on the same approval link, in two processes at once, transfer the money once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'account-demo-'));
  const start = runDemo(dir, 'chat', 'start');
  expect(start.stderr).toBe('');
  expect(start.status).toBe(0);
  const id = /continuation ([0-9a-f-]{36}) saved in the SQLite store/.exec(start.stdout)?.[1];
  expect(id).toBeDefined();

  // Both processes load the continuation and show it before either claims it.
  const operators = await Promise.all([startDemo(dir, 'approve', id!), startDemo(dir, 'approve', id!)]);
  for (const operator of operators) {
    expect(operator.stderr).toBe('');
    expect(operator.status).toBe(0);
    expect(operator.stdout).toContain('pending approval: transfer {"from":"ACC-1","to":"ACC-2","amount":50}');
  }
  const winners = operators.filter((operator) => operator.stdout.includes('approved and resumed'));
  expect(winners).toHaveLength(1);
  const [winner] = winners as [(typeof operators)[number]];
  const loser = operators.find((operator) => operator !== winner)!;
  expect(winner.stdout).toContain(
    'Final answer: Transferred 50 EUR to ACC-2 (receipt T-1); ACC-1 now holds 70 EUR.',
  );
  expect(winner.stdout).toContain('transfers executed: 1');
  // The store's claim refused the loser: the continuation was claimed, or already resumed.
  expect(loser.stdout).toMatch(
    new RegExp(
      `another operator decided first, nothing ran here: Continuation "${id}" is (claimed by another worker|already resumed)\\.`,
    ),
  );
  expect(loser.stdout).not.toContain('Final answer');

  const after = await inspect(dir);
  expect(after.balances).toEqual({ 'ACC-1': 70, 'ACC-2': 60 });
  expect(after.transfers).toEqual([
    { key: expect.any(String), receipt: 'T-1', from_account: 'ACC-1', to_account: 'ACC-2', amount: 50 },
  ]);
  expect(after.continuations).toEqual([{ status: 'completed', agentName: 'accounts' }]);

  // A later approval finds nothing waiting and changes nothing.
  const again = runDemo(dir, 'chat', 'approve');
  expect(again.status).toBe(0);
  expect(again.stdout).toContain('nothing waits for a decision.');
  expect(await inspect(dir)).toEqual(after);
});

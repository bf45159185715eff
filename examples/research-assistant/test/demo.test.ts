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
      env: { ...process.env, RESEARCH_DEMO_DIR: dir },
    },
  );

/** The publications table, read from the SQLite file the demo shares with its store. */
async function publications(dir: string) {
  const store = createSqliteStore({ path: join(dir, 'research.sqlite') });
  try {
    return store.database
      .prepare('SELECT idempotency_key AS key, title FROM publications ORDER BY rowid')
      .all() as Array<{ key: string; title: string }>;
  } finally {
    await store.close();
  }
}

it("suspends on the researcher's publish_report two levels down, completes in a new process with the edited title, and refuses a second resume", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'research-demo-'));
  const run = node(dir);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const pids = new Set(
    run.stdout
      .split('\n')
      .map((line) => /^\[process (\d+)\]/.exec(line)?.[1])
      .filter(Boolean),
  );
  expect(pids.size).toBe(3);
  expect(run.stdout).toContain('search_web executions in this process: 1.');
  expect(run.stdout).toContain(
    'pending approval: research-assistant.research > researcher.publish_report {"title":"Solar market brief: the 2026 solar market"',
  );
  expect(run.stdout).toContain(
    'Final answer: Done. Report published at https://reports.example.com/solar-market-brief-2026',
  );
  expect(run.stdout).toContain('publish_report executions: 1');
  expect(run.stdout).toContain('search_web executions in the resuming process: 0');
  const published = await publications(dir);
  expect(published.map((publication) => publication.title)).toEqual(['Solar market brief 2026']);
  expect(published[0]!.key).toMatch(/^[0-9a-f-]{36}\/assistant_1:researcher_2$/);

  // A third process tries the same continuation again: the store's claim refuses it.
  expect(run.stdout).toMatch(
    /resuming the same continuation again: CLAIM_CONFLICT \(Continuation "[0-9a-f-]{36}" is already resumed\.\)/,
  );
  expect(run.stdout.match(/publish_report executions: 1/g)).toHaveLength(2);

  // Nothing is left to approve.
  const approveAgain = node(dir, 'approve');
  expect(approveAgain.status).toBe(1);
  expect(approveAgain.stderr).toContain('Nothing to approve');
  expect(await publications(dir)).toEqual(published);
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const demo = join(import.meta.dirname, '..', 'src', 'demo.ts');

function runDemo(api: 'chat' | 'responses') {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ACCOUNT_DEMO_DIR: mkdtempSync(join(tmpdir(), 'account-demo-')),
    ACCOUNT_DEMO_API: api,
  };
  // The scripted server, never a real endpoint, in tests.
  delete env.OPENAI_API_KEY;
  return spawnSync(process.execPath, ['--conditions=@agent-continuations/source', '--import', 'tsx', demo], {
    encoding: 'utf8',
    env,
  });
}

describe.each(['chat', 'responses'] as const)('account demo over the %s API', (api) => {
  it('suspends for approval in one process and finishes in another, on the approve and the reject path', () => {
    const run = runDemo(api);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const [approvePath, rejectPath] = run.stdout.split('--- reject path ---') as [string, string];
    const pids = (text: string) =>
      new Set([...text.matchAll(/^\[process (\d+)\]/gm)].map((match) => match[1]));
    expect(pids(approvePath).size).toBe(2);
    expect(pids(rejectPath).size).toBe(2);

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
  });
});

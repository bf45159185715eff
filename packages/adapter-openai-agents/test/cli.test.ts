/**
 * The command line takes this adapter like any other: a run that handed off and waits in the
 * billing agent is saved in a SQLite store, `agent-continuations approve` in a subprocess resumes it
 * there with the agents of --agents, the refund runs once in that process, and a second approve is
 * refused and runs nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { deskScripts } from './support/billing';

const BIN = join(import.meta.dirname, '../../cli/src/bin.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const AGENTS = join(import.meta.dirname, 'fixtures/cli-agents.ts');

const server = setupScriptedOpenAIServer({
  scripts: { 'cli-triage': deskScripts.triage, 'cli-billing': deskScripts.billing },
});
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-openai-agents-cli-'));
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({
  ...process.env,
  AGENTS_TEST_BASE_URL: server.baseURL,
  AGENTS_TEST_RUNS: join(dir, 'runs'),
});
/** Run the CLI in a subprocess; this process keeps serving the scripted model meanwhile. */
function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@agent-continuations/source', '--import', TSX, BIN, ...args],
    { env: env() },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

it('approves the refund waiting in the handoff target, which runs once in the CLI process', {
  timeout: 120_000,
}, async () => {
  // This process builds the same agents module to make the run the CLI resumes.
  for (const [name, value] of Object.entries(env()))
    if (name.startsWith('AGENTS_TEST_')) vi.stubEnv(name, value!);
  const { triage } = await import('./fixtures/cli-agents');
  const paused = await triage.run('Refund order O-7, 20 EUR');
  if (paused.status !== 'suspended') throw new Error('expected the refund approval');
  const path = join(dir, 'desk.db');
  const store = createSqliteStore({ path });
  await store.save(paused.continuation);
  await store.close();
  const [action] = paused.actions;
  expect(action!.id).toBe('call_1_0/call_2_0');

  const where = ['--store', `sqlite:${path}`, '--agents', AGENTS];
  const approved = await cli('approve', paused.continuation.id, action!.id, '--by', 'ann', ...where);
  expect(approved.stderr).toBe('');
  expect(approved.status).toBe(0);
  expect(approved.stdout).toContain('Refunded: {"ok":true,"order":"O-7","amount":20}');
  const runs = () =>
    readFileSync(join(dir, 'runs'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  expect(runs()).toHaveLength(1);
  expect(runs()[0]).toMatchObject({ order: 'O-7', amount: 20 });
  expect(runs()[0].pid).not.toBe(process.pid);

  const again = await cli('approve', paused.continuation.id, action!.id, '--by', 'bob', ...where);
  expect(again.status).toBe(1);
  expect(runs()).toHaveLength(1);
});

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseContinuation } from '@agent-continuations/core';
import { setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const child = fileURLToPath(new URL('./fixtures/suspend-child.ts', import.meta.url));
/** A hung process is killed after this long; an idle one exits in well under a second. */
const HANG_LIMIT_MS = 15_000;

const server = setupScriptedOpenAIServer({
  scripts: { 'bank-model': [{ toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 5 } }] }] },
});

/** Run the child to suspension; resolves with its exit code (null when it had to be killed) and output. */
function runChild(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['--conditions=@agent-continuations/source', '--import', 'tsx', child, ...args],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    proc.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const killer = setTimeout(() => proc.kill('SIGKILL'), HANG_LIMIT_MS);
    proc.on('error', reject);
    proc.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('a suspended run holds no open handles', () => {
  it.each([
    ['chat', 'run'],
    ['responses', 'run'],
    ['chat', 'stream'],
  ])('%s api, %s: the process exits on its own after suspending', async (api, mode) => {
    const { code, stdout, stderr } = await runChild([server.baseURL, api, mode]);
    expect(code, `child did not exit on its own; stderr: ${stderr}`).toBe(0);
    expect(parseContinuation(stdout).pending).toMatchObject([{ kind: 'approval', toolName: 'transfer' }]);
  });
});

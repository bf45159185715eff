import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serializeContinuation } from '@agent-continuations/core';
import type { Counts } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { mixedChain } from './fixtures/mixed-chain';

it('a three-level chain of three graph kinds resumes in a new Node process from the continuation alone', async () => {
  const counts: Counts = {};
  const first = await mixedChain(counts).run('pay bob 50');
  if (first.status !== 'suspended') throw new Error('expected a suspension');
  const [action] = first.actions;
  expect(action!.path.map((segment) => [segment.agent, segment.toolName])).toEqual([
    ['level1', 'ask_level2'],
    ['level2', 'ask_level3'],
    ['level3', 'transfer'],
  ]);
  expect(counts.transfer ?? 0).toBe(0);
  // Plain JSON all the way down: nested continuations hold no revived LangChain objects.
  expect(JSON.parse(serializeContinuation(first.continuation))).toEqual(first.continuation);

  const file = join(mkdtempSync(join(tmpdir(), 'lg-continuation-')), 'continuation.json');
  writeFileSync(file, serializeContinuation(first.continuation));
  const script = fileURLToPath(new URL('./fixtures/resume-in-child.ts', import.meta.url));
  const child = spawnSync(
    process.execPath,
    [
      '--conditions=@agent-continuations/source',
      '--import',
      'tsx',
      script,
      file,
      JSON.stringify({ [action!.id]: { type: 'approve' } }),
    ],
    { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) },
  );
  expect(child.stderr).toBe('');
  const outcome = JSON.parse(child.stdout) as { status: string; output: string; counts: Counts };
  expect(outcome.status).toBe('completed');
  expect(outcome.counts).toEqual({ transfer: 1 });
  expect(outcome.output).toContain('ask_level2=');
});

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Continuation, parseContinuation } from '@agent-continuations/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../src';

const PROCESSES = 4;
const IDS = 100;

const continuation = (id: string): Continuation =>
  parseContinuation({
    format: 'agent-continuation',
    version: 1,
    id,
    runId: `run-${id}`,
    agent: { name: 'payroll', framework: 'core' },
    messages: [{ role: 'user', content: 'Raise the salary of Ann' }],
    pending: [],
    done: [],
    step: 1,
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    suspendedBy: { type: 'checkpoint' },
    metadata: {},
    decisions: [],
    createdAt: '2025-01-01T00:00:00.000Z',
  });

function startClaimer(
  path: string,
  seed: number,
): { child: ChildProcess; lines: string[]; ready: Promise<void> } {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@agent-continuations/source',
      '--import',
      'tsx',
      join(import.meta.dirname, 'claim-process.ts'),
      path,
      String(IDS),
      String(seed),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`claimer ${seed} exited with ${code} before it was ready`)),
    );
    child.stdout!.setEncoding('utf8');
    let buffered = '';
    child.stdout!.on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts);
      if (parts.includes('ready')) resolve();
    });
  });
  return { child, lines, ready };
}

describe('sqlite store shared by several processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ac-sqlite-mp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`gives each of ${IDS} continuations to exactly one of ${PROCESSES} racing processes`, async () => {
    const path = join(dir, 'store.db');
    const store = createSqliteStore({ path });
    for (let i = 0; i < IDS; i++) await store.save(continuation(`c${i}`));
    const claimers = Array.from({ length: PROCESSES }, (_, i) => startClaimer(path, i * 25));
    await Promise.all(claimers.map((claimer) => claimer.ready));
    const exits = claimers.map(
      (claimer) => new Promise<number | null>((resolve) => claimer.child.once('exit', resolve)),
    );
    for (const claimer of claimers) claimer.child.stdin!.end('go\n');
    expect(await Promise.all(exits)).toEqual(Array(PROCESSES).fill(0));

    const reports = claimers.map(
      (claimer) => JSON.parse(claimer.lines.at(-1)!) as { won: string[]; errors: string[] },
    );
    expect(reports.flatMap((report) => report.errors)).toEqual([]);
    const won = reports.flatMap((report) => report.won).sort();
    expect(won).toEqual(Array.from({ length: IDS }, (_, i) => `c${i}`).sort());
    const claimed = await store.list({ status: 'claimed', limit: IDS });
    expect(claimed.items).toHaveLength(IDS);
    await store.close();
  });
});

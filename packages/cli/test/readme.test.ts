import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';

const dir = join(import.meta.dirname, 'readme');
const read = (file: string) => readFileSync(join(dir, file), 'utf8');

it('runs the README session, which the README shows verbatim, against a real SQLite file', () => {
  const readme = readFileSync(join(import.meta.dirname, '../README.md'), 'utf8');
  for (const file of ['agents.ts', 'start.ts', 'session.sh']) expect(readme).toContain(read(file));

  // `agent-continuations` and `npx tsx` as an installed package would run them, on the sources.
  const node = `node --conditions=@agent-continuations/source --import ${pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href}`;
  const prelude = [
    `agent-continuations() { ${node} ${join(import.meta.dirname, '../src/bin.ts')} "$@"; }`,
    `npx() { shift; ${node} "$@"; }`,
  ].join('\n');
  const clean = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `agents.db${suffix}`), { force: true });
  };
  clean();
  try {
    const { AGENT_CONTINUATIONS_STORE: _s, AGENT_CONTINUATIONS_AGENTS: _a, ...env } = process.env;
    const session = spawnSync('bash', ['-e', '-c', `${prelude}\n${read('session.sh')}`], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    expect(session.stderr).toContain('error CLAIM_CONFLICT: Continuation');
    expect(session.status).toBe(0);
    const out = session.stdout;
    expect(out).toMatch(/approval call_1 {2}bank > transfer \{"to":"bob","amount":500\}/);
    expect(out).toContain('action id: call_1');
    expect(out).toContain('approve call_1 of ');
    expect(out).toContain('the run completed.\noutput: Sent.');
    expect(out).toContain('exit 1: already resumed, nothing ran twice');
    // The approved transfer ran once, with the edited amount.
    expect(out.match(/transfer: sending/g)).toEqual(['transfer: sending']);
    expect(out).toContain('transfer: sending 450 EUR to bob');
  } finally {
    clean();
  }
}, 240_000);

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createSqliteStore } from '../src';

it('runs the README example, which the README shows verbatim', async () => {
  const example = readFileSync(join(import.meta.dirname, 'readme/example.ts'), 'utf8');
  expect(readFileSync(join(import.meta.dirname, '../README.md'), 'utf8')).toContain(example);

  const cwd = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), 'ac-sqlite-readme-'));
  try {
    process.chdir(dir);
    await import('./readme/example');
    const { runs } = await import('./readme/agent');
    expect(runs).toEqual({ update_salary: 1, send_letter: 0 });
    const store = createSqliteStore({ path: join(dir, 'agents.db') });
    expect((await store.list()).items.map((item) => item.status)).toEqual(['completed']);
    await store.close();
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
});

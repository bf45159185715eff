/** The README's TypeScript example runs as a user would paste it, and prints what it promises. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const here = join(import.meta.dirname, '..');
const expected = ['200 true\ntrue'];

it('runs the README examples', () => {
  const blocks = [...readFileSync(join(here, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
    (match) => match[1]!,
  );
  expect(blocks).toHaveLength(expected.length);
  // Inside the package (ignored by git), so the example imports the package by its own name.
  const dir = join(here, '.vitest-cache', 'readme-examples');
  mkdirSync(dir, { recursive: true });
  blocks.forEach((code, index) => {
    const file = join(dir, `readme-${index + 1}.mts`);
    writeFileSync(file, code);
    const run = spawnSync(
      process.execPath,
      ['--conditions=@agent-continuations/source', '--import', 'tsx', file],
      {
        cwd: join(here, '..', '..'),
        encoding: 'utf8',
      },
    );
    // Gone before the lint of the repository sees it.
    rmSync(file);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(expected[index]);
  });
}, 60_000);

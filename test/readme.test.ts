/**
 * Every TypeScript block of the root README runs, as a user would paste it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const blocks = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
  (m) => m[1]!,
);

it('the README has examples', () => {
  expect(blocks.length).toBeGreaterThan(0);
});

blocks.forEach((code, index) => {
  it(`README example ${index + 1} runs`, () => {
    const dir = join(root, 'node_modules', '.cache', 'readme-examples');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `example-${index + 1}.mts`);
    writeFileSync(file, code);
    const run = spawnSync(
      process.execPath,
      ['--conditions=@agent-continuations/source', '--import', 'tsx', file],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    if (index === 0) expect(run.stdout.trim()).toBe('completed Sent.');
  });
});

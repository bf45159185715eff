/**
 * Every TypeScript block of the root README and of the core's README runs, as a user would paste
 * it, and prints what the README promises.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** What each block prints, in order, per README. */
const expected: Record<string, string[]> = {
  'README.md': ['completed Sent.'],
  'packages/core/README.md': [
    'completed Refunded 49 EUR. 1',
    'true',
    'completed 1 CLAIM_CONFLICT',
    "[ 'https://ops.example.com', 'https://ops.example.com' ]\n[ 'https://ops.example.com' ]\ntrue\ncompleted 1 deadline,ann",
    'approve,reject\ntrue\ncompleted',
    '',
  ],
};

/** READMEs whose examples are test files of the repository, shown verbatim. */
const verbatim: Record<string, string[]> = {
  'packages/testing/README.md': [
    'packages/core/test/conformance.test.ts',
    'packages/core/test/memory-store.test.ts',
  ],
};

for (const [readme, files] of Object.entries(verbatim)) {
  it(`${readme} shows test files that run in this suite, verbatim`, () => {
    const blocks = [...readFileSync(join(root, readme), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
      (m) => m[1]!,
    );
    expect(blocks).toEqual(files.map((file) => readFileSync(join(root, file), 'utf8')));
  });
}

for (const [readme, outputs] of Object.entries(expected)) {
  describe(readme, () => {
    const blocks = [...readFileSync(join(root, readme), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
      (m) => m[1]!,
    );

    it('has one expected output per example', () => {
      expect(blocks).toHaveLength(outputs.length);
    });

    blocks.forEach((code, index) => {
      it(`example ${index + 1} runs`, () => {
        const dir = join(root, 'node_modules', '.cache', 'readme-examples');
        mkdirSync(dir, { recursive: true });
        const file = join(dir, `${readme.replace(/\W+/g, '-')}-${index + 1}.mts`);
        writeFileSync(file, code);
        const run = spawnSync(
          process.execPath,
          ['--conditions=@agent-continuations/source', '--import', 'tsx', file],
          { cwd: root, encoding: 'utf8' },
        );
        expect(run.stderr).toBe('');
        expect(run.status).toBe(0);
        expect(run.stdout.trim()).toBe(outputs[index]);
      });
    });
  });
}

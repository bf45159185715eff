/**
 * Imports, counted in instructions: the same pairs as `./imports`, each process run under
 * `valgrind --tool=callgrind` (with `--single-threaded`, so V8's background threads do not shift
 * the count), for a figure that does not swing with the machine's load as a wall-clock time does.
 * What the core or an adapter costs is the difference between the process that imports it and
 * the one that stops just before it; each figure is the median of {@link RUNS} such pairs. A
 * single-threaded V8 collects the garbage a framework left on the main thread, during whatever
 * runs next: the last column imports the adapter after a full collection, its own cost without
 * that debt. Needs valgrind and the built packages (`pnpm build`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PAIRS } from './imports';
import { table } from './report';

/** Pairs of processes per figure. */
const RUNS = 3;

const EMPTY = new URL('./empty-module.mjs', import.meta.url).href;
/** In a list of specifiers: a full garbage collection at that point instead of an import. */
const GC = '(full gc)';

/** Millions of instructions of a fresh `node` process that imports `specifiers` in order, in `cwd`. */
function instructions(specifiers: string[], cwd: string): number {
  const script = `for (const s of ${JSON.stringify(specifiers)}) if (s === ${JSON.stringify(GC)}) gc(); else await import(s);`;
  const child = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      '--single-threaded',
      '--expose-gc',
      '--input-type=module',
      '-e',
      script,
    ],
    { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  );
  const collected = /Collected : (\d+)/.exec(child.stderr ?? '');
  if (child.status !== 0 || !collected) {
    throw new Error(`counting ${specifiers.join(', ')} failed:\n${child.stderr}`);
  }
  return Number(collected[1]) / 1e6;
}

/** Median over {@link RUNS} pairs of what importing `last` adds after `before`. */
function added(before: string[], last: string, cwd: string): number {
  const samples = Array.from(
    { length: RUNS },
    () => instructions([...before, last], cwd) - instructions(before, cwd),
  ).sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

const millions = (value: number) => Number(value.toFixed(1));

export async function run(): Promise<void> {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    console.log('valgrind is not installed: the instruction counts need it (apt-get install valgrind).');
    return;
  }
  const missing = ['../packages/core/dist', ...PAIRS.map((p) => `${p.dir}dist`)].filter(
    (dist) => !existsSync(new URL(dist, import.meta.url)),
  );
  if (missing.length > 0) {
    console.log(`Not built: ${missing.join(', ')}. Run \`pnpm build\` first; imports are counted on dist.`);
    return;
  }
  const here = fileURLToPath(new URL('.', import.meta.url));
  const empty = millions(instructions([EMPTY], here));
  table('Imports in instructions: the core alone, after an empty import (millions, median)', [
    {
      module: '@agent-continuations/core',
      'process with an empty import (M)': empty,
      'the core adds (M)': millions(added([EMPTY], '@agent-continuations/core', here)),
      runs: RUNS,
    },
  ]);
  const rows = PAIRS.map(({ framework, adapter, dir }) => {
    const cwd = fileURLToPath(new URL(dir, import.meta.url));
    return {
      framework,
      'framework alone (M)': millions(instructions([framework], cwd)),
      adapter,
      'adapter adds (M)': millions(added([framework, EMPTY], adapter, cwd)),
      'after a full gc (M)': millions(added([framework, EMPTY, GC], adapter, cwd)),
    };
  });
  table('Imports in instructions: each adapter after its framework (millions, median)', rows);
}

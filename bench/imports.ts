/**
 * Imports: what a cold start pays to load the core and each adapter, measured on the BUILT
 * packages (`dist`, as users install them; run `pnpm build` first). Each figure is the median of
 * {@link RUNS} fresh `node` processes, each timing its own `import()` calls with
 * `performance.now()`, so Node's own start-up is left out. For each framework: the framework
 * alone, then the framework and its adapter in one process, and what the adapter adds after the
 * framework is loaded (the shared dependencies it finds already loaded cost nothing). Each pair is
 * imported from its adapter's package directory, so the framework is the copy the adapter loads
 * and the adapter resolves to its own `dist` by its package name. Between the two, the process
 * imports an empty module: a framework can leave work pending that runs at the next import
 * whatever it is (after `@openai/agents`, tens of milliseconds, mostly garbage collection), and
 * that is counted as the framework settling, not as the adapter. The last column imports the
 * adapter after a full garbage collection (`--expose-gc`): the garbage a framework leaves behind
 * is collected during whatever runs next, and that column is the adapter's own cost without it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { table } from './report';

/** Fresh processes per figure. */
const RUNS = 15;

const here = fileURLToPath(new URL('.', import.meta.url));
const EMPTY = new URL('./empty-module.mjs', import.meta.url).href;
/** In a list of specifiers: a full garbage collection at that point instead of an import. */
const GC = '(full gc)';

/** Framework and adapter pairs, by the names a user imports, with the adapter's package directory. */
export const PAIRS = [
  { framework: 'openai', adapter: '@agent-continuations/openai', dir: '../packages/adapter-openai/' },
  { framework: 'ai', adapter: '@agent-continuations/vercel-ai', dir: '../packages/adapter-vercel-ai/' },
  {
    framework: '@langchain/langgraph',
    adapter: '@agent-continuations/langgraph',
    dir: '../packages/adapter-langgraph/',
  },
  {
    framework: '@openai/agents',
    adapter: '@agent-continuations/openai-agents',
    dir: '../packages/adapter-openai-agents/',
  },
];

/**
 * Milliseconds each of `specifiers` takes to import, in order, in one fresh process started in
 * `cwd`. The child gets no `execArgv`, so the source export condition the runner adds is not
 * passed on: packages resolve to their `dist`.
 */
function timeImports(specifiers: string[], cwd: string): number[] {
  const collect = specifiers.includes(GC);
  const script = `const out = [];
for (const s of ${JSON.stringify(specifiers)}) {
  const t = performance.now();
  if (s === ${JSON.stringify(GC)}) gc(); else await import(s);
  out.push(performance.now() - t);
}
process.stdout.write(JSON.stringify(out));`;
  const flags = collect ? ['--expose-gc'] : [];
  const child = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (child.status !== 0) throw new Error(`importing ${specifiers.join(', ')} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout) as number[];
}

/** Median over {@link RUNS} processes of each position's import time. */
function medians(specifiers: string[], cwd = here): number[] {
  const samples = Array.from({ length: RUNS }, () => timeImports(specifiers, cwd));
  return specifiers.map((_, i) => {
    const sorted = samples.map((s) => s[i] as number).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] as number;
  });
}

const ms = (value: number) => Number(value.toFixed(1));

export async function run(): Promise<void> {
  const missing = ['../packages/core/dist', ...PAIRS.map((p) => `${p.dir}dist`)].filter(
    (dist) => !existsSync(new URL(dist, import.meta.url)),
  );
  if (missing.length > 0) {
    console.log(`Not built: ${missing.join(', ')}. Run \`pnpm build\` first; imports are measured on dist.`);
    return;
  }
  const [core] = medians(['@agent-continuations/core']);
  table('Imports: the core alone (ms, median of fresh processes)', [
    { module: '@agent-continuations/core', 'import (ms)': ms(core as number), runs: RUNS },
  ]);
  const rows = PAIRS.map(({ framework, adapter, dir }) => {
    const cwd = fileURLToPath(new URL(dir, import.meta.url));
    const [alone] = medians([framework], cwd);
    const [first, settle, then] = medians([framework, EMPTY, adapter], cwd);
    const [, , , collected] = medians([framework, EMPTY, GC, adapter], cwd);
    return {
      framework,
      'framework alone (ms)': ms(alone as number),
      adapter,
      'framework + adapter (ms)': ms((first as number) + (settle as number) + (then as number)),
      'framework settles (ms)': ms(settle as number),
      'adapter adds (ms)': ms(then as number),
      'after a full gc (ms)': ms(collected as number),
    };
  });
  table('Imports: each adapter after its framework (ms, median of fresh processes)', rows);
}

/**
 * `pnpm bench [section ...] [--json out.json]`: runs the benchmark sections below in order, or only
 * those named (`pnpm bench core`). Each section is a module exporting `run()`, which prints its own
 * tables through `table()` (./report). With `--json`, every table is also written to the file as
 * `{ sections: { section: { title: rows } } }` with the machine, Node version, git commit and date,
 * for `pnpm bench:compare before.json after.json`. Benchmarks print figures; they assert nothing.
 *
 * Sections run on the workspace's TypeScript sources, like the tests: without the
 * `@agent-continuations/source` export condition the packages would resolve to their unbuilt
 * `dist`, so the runner restarts itself with the condition when it is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { recorded, section } from './report';

type Section = () => Promise<{ run(): Promise<void> }>;

/** One line per section, in the order they run. */
const sections: Record<string, Section> = {
  core: () => import('./core'),
  'cross-framework': () => import('./cross-framework'),
  imports: () => import('./imports'),
  'imports-instructions': () => import('./imports-instructions'),
  langgraph: () => import('./langgraph'),
  openai: () => import('./openai'),
  'replay-guard': () => import('./replay-guard'),
  stores: () => import('./stores'),
  'vercel-ai': () => import('./vercel-ai'),
};

const CONDITION = '--conditions=@agent-continuations/source';

if (!process.execArgv.includes(CONDITION)) {
  const child = spawnSync(process.execPath, [...process.execArgv, CONDITION, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(child.status ?? 1);
}

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
if (jsonAt >= 0 && !jsonFile) {
  console.error('--json needs a file name: pnpm bench --json out.json');
  process.exit(1);
}
const wanted = jsonAt >= 0 ? args.filter((_, i) => i !== jsonAt && i !== jsonAt + 1) : args;
const unknown = wanted.filter((name) => !(name in sections));
if (unknown.length > 0) {
  console.error(
    `Unknown bench section ${unknown.join(', ')}; sections: ${Object.keys(sections).join(', ')}.`,
  );
  process.exit(1);
}
const timings: Record<string, number> = {};
for (const [name, load] of Object.entries(sections)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n## ${name}`);
  section(name);
  const started = performance.now();
  await (await load()).run();
  const seconds = (performance.now() - started) / 1000;
  timings[name] = Number(seconds.toFixed(1));
  console.log(`(${name}: ${seconds.toFixed(1)} s)`);
}

if (jsonFile) {
  const git = (...gitArgs: string[]) => {
    try {
      return execFileSync('git', gitArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return undefined;
    }
  };
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    git: {
      commit: git('rev-parse', 'HEAD'),
      dirty: Boolean(git('status', '--porcelain', '--untracked-files=no')),
    },
    machine: {
      platform: platform(),
      release: release(),
      cpu: cpus()[0]?.model,
      cores: cpus().length,
      memoryGB: Number((totalmem() / 2 ** 30).toFixed(1)),
    },
    seconds: timings,
    sections: recorded,
  };
  writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nTables written to ${jsonFile}`);
}

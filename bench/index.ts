/**
 * `pnpm bench [section ...]`: runs the benchmark sections below in order, or only those named
 * (`pnpm bench core`). Each section is a module exporting `run()`, which prints its own tables.
 * Benchmarks print figures; they assert nothing.
 *
 * Sections run on the workspace's TypeScript sources, like the tests: without the
 * `@agent-continuations/source` export condition the packages would resolve to their unbuilt
 * `dist`, so the runner restarts itself with the condition when it is missing.
 */
import { spawnSync } from 'node:child_process';

type Section = () => Promise<{ run(): Promise<void> }>;

/** One line per section, in the order they run. */
const sections: Record<string, Section> = {
  core: () => import('./core'),
  'cross-framework': () => import('./cross-framework'),
  langgraph: () => import('./langgraph'),
  openai: () => import('./openai'),
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

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in sections));
if (unknown.length > 0) {
  console.error(
    `Unknown bench section ${unknown.join(', ')}; sections: ${Object.keys(sections).join(', ')}.`,
  );
  process.exit(1);
}
for (const [name, load] of Object.entries(sections)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n## ${name}`);
  const started = performance.now();
  await (await load()).run();
  console.log(`(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

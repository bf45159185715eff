/**
 * Core: the cost of the continuation format. For continuations made by the real engine (scripted
 * models, real tools), with 10 to 10,000 messages and with sub-agents nested 1 to 50 deep:
 * serialized bytes and the times of `serializeContinuation` and `parseContinuation` (from a
 * string, so JSON parsing and full validation are both in), side by side with `JSON.stringify` and
 * `JSON.parse` of the same value and bytes, the floor for a JSON format. The depth table also shows
 * that size is the sum of the levels' own sizes plus a few bytes per level: a child is stored as
 * JSON inside its parent, never as an escaped string, so nesting costs no more than its content.
 * Then: resuming a nested continuation from its text (25 to 100 levels), and what a process pays
 * before it can work: importing the core, and a store worker's start-up from spawn to ready.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  agentTool,
  type ContinuableAgent,
  type Continuation,
  createContinuableAgent,
  defineTool,
  openContinuation,
  parseContinuation,
  sealContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { type ScriptedToolCall, scriptedModel } from '@agent-continuations/testing';
import { z } from 'zod';
import { table } from './report';

const MESSAGE_COUNTS = [10, 100, 1000, 10_000];
const DEPTHS = [1, 2, 4, 8, 50];
const RESUME_DEPTHS = [25, 50, 100];
/** Samples of the start-up figures, each a new process. */
const STARTS = 5;
/** Messages of each level in the depth table. */
const LEVEL_MESSAGES = 10;
/** Time spent measuring each operation, after the warm-up. */
const BUDGET_MS = 400;

const lookup = defineTool({
  name: 'lookup',
  description: 'Look up a host',
  parameters: z.object({ host: z.string() }),
  execute: ({ host }) => ({ host, status: 'degraded', load: [0.91, 0.87, 0.93], note: 'n'.repeat(120) }),
});
const restart = defineTool({
  name: 'restart',
  description: 'Restart a host (needs approval)',
  parameters: z.object({ host: z.string() }),
  needsApproval: true,
  execute: ({ host }) => `restarted ${host}`,
});

/**
 * An agent whose run ends suspended with exactly `messages` messages: a user message, then
 * lookups (an assistant and a tool message each), then one call that waits: an approval, or the
 * sub-agent `child`.
 */
function agent(name: string, messages: number, child?: ContinuableAgent): ContinuableAgent {
  const lookups = (messages - 2) / 2;
  if (!Number.isInteger(lookups) || lookups < 0) throw new Error(`${messages} messages cannot be built`);
  const last: ScriptedToolCall = child
    ? { name: child.name, args: { input: 'restart web-0' } }
    : { name: 'restart', args: { host: 'web-0' } };
  return createContinuableAgent({
    name,
    instructions: `You are ${name}: check hosts, then act.`,
    model: scriptedModel((request) => {
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      // Once the waiting call has its result (after a resume), the agent answers and finishes.
      if (turn > lookups) return { text: 'Done.' };
      if (turn < lookups)
        return {
          text: `Checking web-${turn}.`,
          toolCalls: [{ name: 'lookup', args: { host: `web-${turn}` } }],
        };
      return { toolCalls: [last] };
    }),
    tools: child ? [lookup, agentTool(child)] : [lookup, restart],
    maxSteps: Number.POSITIVE_INFINITY,
  });
}

async function suspendedRun(root: ContinuableAgent) {
  const result = await root.run('Check every host, then restart web-0.');
  if (result.status !== 'suspended') throw new Error(`expected a suspended run, got ${result.status}`);
  return result;
}

async function suspended(root: ContinuableAgent): Promise<Continuation> {
  return (await suspendedRun(root)).continuation;
}

/** Agents nested `depth` deep, the deepest waiting for approval; every level has the same messages. */
function nestedAgent(depth: number): ContinuableAgent {
  let current = agent('level-1', LEVEL_MESSAGES);
  for (let level = 2; level <= depth; level++) current = agent(`level-${level}`, LEVEL_MESSAGES, current);
  return current;
}

async function nested(depth: number): Promise<Continuation> {
  return suspended(nestedAgent(depth));
}

/** The JSON of the continuation's levels, each with its sub-agents' continuations cut out. */
function levels(continuation: Continuation): unknown[] {
  const own = {
    ...continuation,
    pending: continuation.pending.map((entry) => {
      if (entry.kind !== 'agent') return entry;
      const { child: _, ...rest } = entry;
      return rest;
    }),
  };
  const children = continuation.pending.flatMap((entry) =>
    entry.kind === 'agent' ? levels(entry.child) : [],
  );
  return [own, ...children];
}

/**
 * Median and best time of `fn` in microseconds, over as many runs as fit in the budget after a
 * warm-up. The best run shows the cost without preemption when the machine is busy; medians of
 * the larger sizes suffer most from it.
 */
function time(fn: () => unknown, budgetMs = BUDGET_MS): { median: number; best: number } {
  const warmUntil = performance.now() + budgetMs / 4;
  let warm = 0;
  while (performance.now() < warmUntil || warm < 5) {
    fn();
    warm++;
  }
  const samples: number[] = [];
  const until = performance.now() + budgetMs;
  while (performance.now() < until || samples.length < 15) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]! * 1000, best: samples[0]! * 1000 };
}

/**
 * Serialize and parse of one continuation against `JSON.stringify` of the same value and
 * `JSON.parse` of the same text: medians, best runs per KB, and the ratios of the medians
 * (ours / JSON's; the goal is at most 1.5 for serialize and 2 for parse).
 */
function measure(continuation: Continuation) {
  const text = serializeContinuation(continuation);
  const bytes = new TextEncoder().encode(text).byteLength;
  // Large continuations take long per run: a smaller budget still gives 15 samples.
  const budget = bytes > 1_000_000 ? BUDGET_MS / 2 : BUDGET_MS;
  const value = JSON.parse(text) as unknown;
  const jsonStringify = time(() => JSON.stringify(value), budget);
  const serialize = time(() => serializeContinuation(continuation), budget);
  const jsonParse = time(() => JSON.parse(text), budget);
  const parse = time(() => parseContinuation(text), budget);
  const perKB = (us: number) => ((us * 1024) / bytes).toFixed(2);
  return {
    bytes,
    'serialize median (µs)': serialize.median.toFixed(1),
    'parse median (µs)': parse.median.toFixed(1),
    'serialize best (µs/KB)': perKB(serialize.best),
    'parse best (µs/KB)': perKB(parse.best),
    'serialize (µs/KB)': perKB(serialize.median),
    'JSON.stringify (µs/KB)': perKB(jsonStringify.median),
    'serialize ×JSON.stringify': (serialize.median / jsonStringify.median).toFixed(2),
    'parse (µs/KB)': perKB(parse.median),
    'JSON.parse (µs/KB)': perKB(jsonParse.median),
    'parse ×JSON.parse': (parse.median / jsonParse.median).toFixed(2),
  };
}

/**
 * Resume of a continuation nested `depth` deep from its text (parse, then resume: the deepest
 * approval runs its tool and every level finishes), in ms: median and best of a few runs.
 */
async function resumeNested(depth: number) {
  const root = nestedAgent(depth);
  const first = await suspendedRun(root);
  const text = serializeContinuation(first.continuation);
  const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
  const samples: number[] = [];
  const until = performance.now() + BUDGET_MS * 2;
  for (let i = 0; i < 3 || (performance.now() < until && i < 40); i++) {
    const start = performance.now();
    const result = await root.resume(parseContinuation(text), decisions);
    const ms = performance.now() - start;
    if (result.status !== 'completed')
      throw new Error(`expected the resume to complete, got ${result.status}`);
    if (i > 0) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return {
    bytes: new TextEncoder().encode(text).byteLength,
    median: samples[Math.floor(samples.length / 2)]!,
    best: samples[0]!,
  };
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Start `node` with `args` and time it from spawn until it prints its first line (the child
 * prints when it is ready), or until it exits if it prints nothing. The child may print a number
 * on that line, its own measure in ms, which is returned as `reported`.
 */
function startUp(args: string[]): Promise<{ ms: number; reported?: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let done = false;
    proc.stdout.on('data', (chunk) => {
      out += String(chunk);
      if (!done && out.includes('\n')) {
        done = true;
        const reported = Number.parseFloat(out);
        resolve({ ms: performance.now() - start, ...(Number.isFinite(reported) ? { reported } : {}) });
      }
    });
    proc.stderr.on('data', (chunk) => {
      err += String(chunk);
    });
    proc.on('exit', (code) => {
      if (done) return;
      if (code === 0) resolve({ ms: performance.now() - start });
      else reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.split('\n')[0]}`));
    });
  });
}

async function medianStart(args: string[]): Promise<{ ms: number; reported?: number }> {
  await startUp(args); // warms the file system cache and tsx's transform cache
  const runs = [];
  for (let i = 0; i < STARTS; i++) runs.push(await startUp(args));
  const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const reported = runs.flatMap((run) => (run.reported === undefined ? [] : [run.reported]));
  return { ms: mid(runs.map((run) => run.ms)), ...(reported.length ? { reported: mid(reported) } : {}) };
}

/** Milliseconds an `import()` of `specifier` takes in a new process, printed by the process itself. */
const importScript = (specifier: string) =>
  `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;

const SOURCE = '--conditions=@agent-continuations/source';

async function startUpRows() {
  const rows: Record<string, unknown>[] = [];
  const bare = await medianStart(['-e', 'console.log(0)']);
  rows.push({
    process: 'node -e (no imports)',
    'spawn to ready (ms)': bare.ms.toFixed(0),
    'import (ms)': '-',
  });
  const dist = here('../packages/core/dist/index.js');
  if (existsSync(dist)) {
    const core = await medianStart(['--input-type=module', '-e', importScript(dist)]);
    rows.push({
      process: 'import core (packages/core/dist)',
      'spawn to ready (ms)': core.ms.toFixed(0),
      'import (ms)': core.reported?.toFixed(1) ?? '-',
    });
  } else rows.push({ process: 'import core (packages/core/dist)', note: 'not built: pnpm build first' });
  for (const entry of ['index.js', 'runtime.js']) {
    const file = here(`../packages/testing/dist/${entry}`);
    const process = `import @agent-continuations/testing${entry === 'runtime.js' ? '/runtime' : ''} (dist)`;
    if (!existsSync(file)) {
      rows.push({ process, note: 'not built, or no such entry' });
      continue;
    }
    const testingDist = await medianStart(['--input-type=module', '-e', importScript(file)]);
    rows.push({
      process,
      'spawn to ready (ms)': testingDist.ms.toFixed(0),
      'import (ms)': testingDist.reported?.toFixed(1) ?? '-',
    });
  }
  const source = await medianStart([
    SOURCE,
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    importScript('@agent-continuations/core'),
  ]);
  rows.push({
    process: 'import core (TypeScript source, tsx)',
    'spawn to ready (ms)': source.ms.toFixed(0),
    'import (ms)': source.reported?.toFixed(1) ?? '-',
  });
  const testing = await medianStart([
    SOURCE,
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    importScript('@agent-continuations/testing'),
  ]);
  rows.push({
    process: 'import @agent-continuations/testing (source, tsx)',
    'spawn to ready (ms)': testing.ms.toFixed(0),
    'import (ms)': testing.reported?.toFixed(1) ?? '-',
  });
  const worker = await medianStart([SOURCE, '--import', 'tsx', here('./stores-child.ts'), 'ready', 'sqlite']);
  rows.push({
    process: 'store worker (SQLite store + agent, source, tsx)',
    'spawn to ready (ms)': worker.ms.toFixed(0),
    'import (ms)': worker.reported?.toFixed(1) ?? '-',
  });
  return rows;
}

/** {@link time} for asynchronous work (Web Crypto), one call awaited after another. */
async function timeAsync(fn: () => Promise<unknown>): Promise<{ median: number; best: number }> {
  const warmUntil = performance.now() + BUDGET_MS / 4;
  for (let warm = 0; performance.now() < warmUntil || warm < 5; warm++) await fn();
  const samples: number[] = [];
  const until = performance.now() + BUDGET_MS;
  while (performance.now() < until || samples.length < 15) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]! * 1000, best: samples[0]! * 1000 };
}

const SEAL = { secret: 'bench-secret-0123456789abcdef', keyId: 'bench' };

/**
 * Sealing and verifying against parsing the same text: `open` is what a sealed agent does on
 * every resume (parse, then check the MAC over the canonical bytes).
 */
async function measureSeal(label: string, continuation: Continuation) {
  const sealed = await sealContinuation(continuation, SEAL);
  const text = serializeContinuation(sealed);
  const jsonParse = time(() => JSON.parse(text));
  const parse = time(() => parseContinuation(text));
  const seal = await timeAsync(() => sealContinuation(continuation, SEAL));
  const open = await timeAsync(() => openContinuation(text, SEAL));
  return {
    continuation: label,
    bytes: new TextEncoder().encode(text).byteLength,
    'JSON.parse (µs)': jsonParse.median.toFixed(1),
    'parse (µs)': parse.median.toFixed(1),
    'seal (µs)': seal.median.toFixed(1),
    'parse + verify (µs)': open.median.toFixed(1),
    'verify cost / parse': ((open.median - parse.median) / parse.median).toFixed(2),
  };
}

const bytesOf = (value: unknown) =>
  new TextEncoder().encode(serializeContinuation(value as Continuation)).byteLength;

export async function run(): Promise<void> {
  const byMessages = [];
  for (const messages of MESSAGE_COUNTS) {
    const continuation = await suspended(agent('ops', messages));
    if (continuation.messages.length !== messages) throw new Error('unexpected transcript length');
    byMessages.push({ messages, ...measure(continuation) });
  }
  console.log(
    'Core: one agent suspended for approval after N messages; ours against JSON.stringify / JSON.parse of the same value and text (×: ratio of medians)',
  );
  table('Core: one agent suspended after N messages', byMessages);

  const byDepth = [];
  for (const depth of DEPTHS) {
    const continuation = await nested(depth);
    const parts = levels(continuation);
    if (parts.length !== depth) throw new Error('unexpected nesting');
    const { bytes, ...times } = measure(continuation);
    const own = parts.reduce<number>((sum, part) => sum + bytesOf(part), 0);
    byDepth.push({
      depth,
      bytes,
      'sum of levels': own,
      'overhead per level': depth > 1 ? ((bytes - own) / (depth - 1)).toFixed(0) : '-',
      'bytes per level': Math.round(bytes / depth),
      ...times,
    });
  }
  console.log(
    `Core: agents nested N deep, ${LEVEL_MESSAGES} messages each, approval at the deepest (overhead per level = (bytes - sum of levels) / (depth - 1))`,
  );
  table('Core: agents nested N deep', byDepth);

  const sealing = [
    await measureSeal('3 levels', await nested(3)),
    await measureSeal('1,000 messages', await suspended(agent('ops', 1000))),
  ];
  console.log(
    'Core: sealing and verifying (HMAC-SHA256 over the canonical bytes) against parsing the same text',
  );
  table('Core: sealing and verifying', sealing);

  const resumes = [];
  for (const depth of RESUME_DEPTHS) {
    const { bytes, median, best } = await resumeNested(depth);
    resumes.push({
      depth,
      bytes,
      'resume median (ms)': median.toFixed(1),
      'resume best (ms)': best.toFixed(1),
    });
  }
  const first = resumes[0]!;
  for (const row of resumes) {
    const scale = row.depth / first.depth;
    Object.assign(row, {
      'ms / level': (Number(row['resume median (ms)']) / row.depth).toFixed(2),
      '× of depth 25': (Number(row['resume median (ms)']) / Number(first['resume median (ms)'])).toFixed(2),
      'linear would be': scale.toFixed(0),
    });
  }
  console.log(
    `Core: resume of a continuation nested N deep from its text (parse, approve the deepest call, every level finishes; ${LEVEL_MESSAGES} messages a level)`,
  );
  table('Core: resume of a nested continuation', resumes);

  console.log(
    `Core: start-up, median of ${STARTS} new processes (spawn to the first line printed; import: measured inside the process)`,
  );
  table('Core: start-up and import', await startUpRows());
}

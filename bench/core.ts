/**
 * Core: the cost of the continuation format. For continuations made by the real engine (scripted
 * models, real tools), with 10, 100 and 1000 messages and with sub-agents nested 1, 2, 4 and 8
 * deep: serialized bytes and the median times of `serializeContinuation` and `parseContinuation`
 * (from a string, so JSON parsing and full validation are both in). The depth table also shows
 * that size is the sum of the levels' own sizes plus a few bytes per level: a child is stored as
 * JSON inside its parent, never as an escaped string, so nesting costs no more than its content.
 */
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

const MESSAGE_COUNTS = [10, 100, 1000];
const DEPTHS = [1, 2, 4, 8];
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

async function suspended(root: ContinuableAgent): Promise<Continuation> {
  const result = await root.run('Check every host, then restart web-0.');
  if (result.status !== 'suspended') throw new Error(`expected a suspended run, got ${result.status}`);
  return result.continuation;
}

/** Agents nested `depth` deep, the deepest waiting for approval; every level has the same messages. */
async function nested(depth: number): Promise<Continuation> {
  let current = agent('level-1', LEVEL_MESSAGES);
  for (let level = 2; level <= depth; level++) current = agent(`level-${level}`, LEVEL_MESSAGES, current);
  return suspended(current);
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
function time(fn: () => unknown): { median: number; best: number } {
  const warmUntil = performance.now() + BUDGET_MS / 4;
  let warm = 0;
  while (performance.now() < warmUntil || warm < 5) {
    fn();
    warm++;
  }
  const samples: number[] = [];
  const until = performance.now() + BUDGET_MS;
  while (performance.now() < until || samples.length < 15) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]! * 1000, best: samples[0]! * 1000 };
}

function measure(continuation: Continuation) {
  const text = serializeContinuation(continuation);
  const bytes = new TextEncoder().encode(text).byteLength;
  const serialize = time(() => serializeContinuation(continuation));
  const parse = time(() => parseContinuation(text));
  return {
    bytes,
    'serialize median (µs)': serialize.median.toFixed(1),
    'parse median (µs)': parse.median.toFixed(1),
    'serialize best (µs/KB)': ((serialize.best * 1024) / bytes).toFixed(2),
    'parse best (µs/KB)': ((parse.best * 1024) / bytes).toFixed(2),
  };
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
  console.log('Core: one agent suspended for approval after N messages');
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
}

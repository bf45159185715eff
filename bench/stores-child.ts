/**
 * Child processes of the stores benchmark, so that each measurement has a process of its own:
 *   memory <loops|continuations|reopen|idle> <count> <dir>   resident memory of waiting agents
 *   throughput <store> <ops> <worker> <dir> [lanes]     suspend, claim and resume, timed per phase,
 *                                                       with `lanes` operations in flight (1 by default)
 *   ready <store>                                       start-up: prints the ms from process start
 *                                                       until it has a store and an agent
 * Each prints one line (JSON but for `ready`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ContinuationStore,
  createContinuableAgent,
  type EngineAgent,
  type ModelPort,
} from '@agent-continuations/core';
import { openBenchStore } from './stores-open';

const [mode, ...args] = process.argv.slice(2) as [string, ...string[]];

/** Asks for a transfer, then answers once it has the result; keeps no record of its calls. */
const transferModel: ModelPort = {
  async generate({ messages }) {
    if (messages[messages.length - 1]?.role === 'tool')
      return { message: { role: 'assistant', content: 'Transferred.' } };
    const call = {
      type: 'tool-call' as const,
      toolCallId: 'call_1_0',
      toolName: 'transfer',
      args: { to: 'bob', cents: 5000 },
    };
    return { message: { role: 'assistant', content: [call] } };
  },
};

/** An agent that asks to transfer money, which needs approval, then answers. */
function approvalAgent(execute: () => Promise<unknown>): EngineAgent {
  return createContinuableAgent({
    name: 'approvals',
    instructions: 'Transfer what the user asks, after approval.',
    model: transferModel,
    tools: [
      {
        name: 'transfer',
        inputSchema: { type: 'object', properties: { to: { type: 'string' }, cents: { type: 'integer' } } },
        needsApproval: true,
        execute,
      },
    ],
  });
}

function measure(extra: Record<string, unknown>): void {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  console.log(JSON.stringify({ rss, heapUsed, ...extra }));
}

async function memory(kind: string, count: number, dir: string): Promise<void> {
  if (kind === 'idle') return measure({});
  if (kind === 'loops') {
    // Each agent's loop stays alive inside its tool, awaiting a human's answer as a promise.
    const waiting: Array<() => void> = [];
    const agent = createContinuableAgent({
      name: 'loops',
      model: transferModel,
      tools: [
        {
          name: 'transfer',
          inputSchema: { type: 'object' },
          execute: () => new Promise<string>((resolve) => waiting.push(() => resolve('approved'))),
        },
      ],
    });
    const runs = Array.from({ length: count }, (_, i) => agent.run(`Send 50 EUR to Bob (${i})`));
    while (waiting.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
    measure({ waiting: waiting.length });
    for (const resume of waiting) resume();
    await Promise.all(runs);
    return;
  }
  const store = await openBenchStore('sqlite', join(dir, 'memory.db'), dir);
  if (kind === 'reopen') {
    // A fresh process over the store the previous one filled: what waiting agents cost after a restart.
    let waiting = 0;
    let cursor: string | undefined;
    do {
      const page = await store.list({ status: 'suspended', limit: 500, ...(cursor ? { cursor } : {}) });
      waiting += page.items.length;
      cursor = page.cursor;
    } while (cursor);
    measure({ waiting });
    await store.close?.();
    return;
  }
  const agent = approvalAgent(async () => 'done');
  for (let i = 0; i < count; i++) {
    const result = await agent.run(`Send 50 EUR to Bob (${i})`);
    if (result.status !== 'suspended') throw new Error('expected a suspension');
    await store.save(result.continuation);
  }
  measure({ waiting: count });
  await store.close?.();
}

/** Run `fn` over `items` with at most `lanes` calls in flight, in order within each lane. */
async function inLanes<T, R>(
  items: T[],
  lanes: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await fn(items[index]!, index);
      }
    }),
  );
  return results;
}

async function throughput(
  kind: string,
  ops: number,
  worker: string,
  dir: string,
  lanes: number,
): Promise<void> {
  const store: ContinuationStore = await openBenchStore(kind, join(dir, `${kind}.db`), dir);
  const agent = approvalAgent(async () => 'done');
  let start = performance.now();
  const ids = await inLanes(
    Array.from({ length: ops }, (_, i) => i),
    lanes,
    async (i) => {
      const result = await agent.run(`Send 50 EUR to Bob (${worker}/${i})`);
      if (result.status !== 'suspended') throw new Error('expected a suspension');
      await store.save(result.continuation);
      return result.continuation.id;
    },
  );
  const suspendMs = performance.now() - start;
  start = performance.now();
  const claims = await inLanes(ids, lanes, (id) => store.claim(id, { owner: worker }));
  const claimMs = performance.now() - start;
  start = performance.now();
  // CPU time of this process, which does not count the time it waits for a core on a busy machine.
  const cpu = process.cpuUsage();
  await inLanes(claims, lanes, async (claim) => {
    const stored = (await store.load(claim.id))!;
    const action = stored.continuation.pending[0]!;
    const result = await agent.resume(stored.continuation, { [action.toolCallId]: { type: 'approve' } });
    if (result.status !== 'completed') throw new Error('expected the resume to complete');
    await store.complete(claim);
  });
  const resumeMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const resumeCpuMs = (used.user + used.system) / 1000;
  console.log(JSON.stringify({ ops, suspendMs, claimMs, resumeMs, resumeCpuMs }));
  await store.close?.();
}

/** A worker's start-up: a store opened and an agent built, ready to claim. */
async function ready(kind: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ac-bench-ready-'));
  const store = await openBenchStore(kind, join(dir, `${kind}.db`), dir);
  approvalAgent(async () => 'done');
  console.log(performance.now().toFixed(1));
  await store.close?.();
  rmSync(dir, { recursive: true, force: true });
}

if (mode === 'ready') await ready(args[0]!);
else if (mode === 'memory') await memory(args[0]!, Number(args[1]), args[2]!);
else if (mode === 'throughput')
  await throughput(args[0]!, Number(args[1]), args[2]!, args[3]!, Number(args[4] ?? 1));
else throw new Error(`unknown mode ${mode}`);
process.exit(0);

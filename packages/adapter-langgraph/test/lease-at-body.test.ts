/**
 * A stored resume whose worker stalls inside LangChain's tool invocation (an awaited callback
 * handler: a tracer that waits on its server) after the tool node checked the lease: meanwhile
 * the lease lapses and another worker finishes the run. The stalled worker's tool must not start
 * when it goes on: the lease is checked right before the tool's body. Found by the fault
 * simulation (seed 1000085, react graph): a parallel call's check passed before another call's
 * lapse, and its body started after the take-over.
 */
import {
  type ContinuationStore,
  createMemoryStore,
  isContinuationError,
  resumeStored,
} from '@agent-continuations/core';
import { reportResults } from '@agent-continuations/testing';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { afterEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

afterEach(() => {
  vi.useRealTimers();
});

/** A callback handler LangChain awaits, which holds the first tool start until `thaw`. */
class StallingTracer extends BaseCallbackHandler {
  name = 'stalling-tracer';
  override awaitHandlers = true;
  readonly stalled: Promise<void>;
  private entered!: () => void;
  private thawed!: () => void;
  private readonly thawing = new Promise<void>((resolve) => {
    this.thawed = resolve;
  });
  private once = false;

  constructor() {
    super();
    this.stalled = new Promise<void>((resolve) => {
      this.entered = resolve;
    });
  }

  override async handleToolStart(): Promise<void> {
    if (this.once) return;
    this.once = true;
    this.entered();
    await this.thawing;
  }

  thaw(): void {
    this.thawed();
  }
}

it('a worker that stalls between the tool node and the tool body, while another worker finishes the run, starts no tool', async () => {
  const transfers: string[] = [];
  const transfer = tool(
    async ({ to }) => {
      transfers.push(to);
      return `paid ${to}`;
    },
    { name: 'transfer', description: 'Transfer', schema: z.object({ to: z.string() }) },
  );
  const agent = fromGraph(
    createReactAgent({
      llm: new ScriptedChatModel([{ toolCalls: [{ name: 'transfer', args: { to: 'bob' } }] }, reportResults]),
      tools: requireApproval([transfer]),
      version: 'v2',
    }),
    { name: 'payer' },
  );
  const store = createMemoryStore();
  const first = await agent.run('Pay Bob');
  if (first.status !== 'suspended') throw new Error(`expected an approval, got ${first.status}`);
  await store.save(first.continuation);
  const id = first.continuation.id;
  const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
  // The stalled worker renews nothing while it stalls.
  const tracer = new StallingTracer();
  let thawed = false;
  const stalledStore: ContinuationStore = Object.create(store);
  stalledStore.renew = async (claim, options) => {
    while (!thawed) await new Promise((resolve) => setTimeout(resolve, 5));
    return store.renew(claim, options);
  };
  vi.useFakeTimers({ toFake: ['Date'] });
  const stalled = resumeStored(stalledStore, agent, id, decisions, {
    owner: 'stalled',
    leaseMs: 10_000,
    callbacks: [tracer],
  } as Parameters<typeof resumeStored>[4]).then(
    () => 'no error',
    (error: unknown) => (isContinuationError(error) ? error.code : String(error)),
  );
  await tracer.stalled;
  // Its lease lapses by the store's clock (no timer of the stalled worker fires meanwhile).
  vi.setSystemTime(Date.now() + 60_000);
  const other = await resumeStored(store, agent, id, decisions, { owner: 'fast', leaseMs: 10_000 });
  expect(other.status).toBe('completed');
  expect(transfers).toEqual(['bob']);
  thawed = true;
  tracer.thaw();
  expect(await stalled).toBe('LEASE_LOST');
  expect(transfers, 'the transfer ran once, in the worker that finished').toEqual(['bob']);
  const stored = await store.load(id);
  expect(stored?.status).toBe('completed');
  expect(stored?.resumedBy).toBe('fast');
});

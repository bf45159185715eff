import {
  createContinuableAgent,
  createMemoryStore,
  defineTool,
  isContinuationError,
  listActions,
  resumeStored,
  streamStored,
} from '@agent-continuations/core';
import { reportResults, type Script, scriptedModel } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';

/** A bank agent whose `transfer` needs approval, suspended and saved in a fresh store. */
async function suspendedTransfer(script: Script) {
  const counts = { transfers: 0 };
  const agent = createContinuableAgent({
    name: 'bank',
    model: scriptedModel(script),
    tools: [
      defineTool({
        name: 'transfer',
        parameters: z.object({ amount: z.number() }),
        needsApproval: true,
        execute: async ({ amount }) => {
          counts.transfers++;
          return { sent: amount };
        },
      }),
    ],
  });
  const store = createMemoryStore();
  const first = await agent.run('send 500');
  if (first.status !== 'suspended') throw new Error('expected an approval');
  await store.save(first.continuation);
  return { agent, store, first, counts };
}

it('keeps the last good state in the store when the model fails after decided calls ran', async () => {
  let modelUp = true;
  const script: Script = (request) => {
    const turn = request.messages.filter((m) => m.role === 'assistant').length;
    if (turn === 0) return { toolCalls: [{ name: 'transfer', args: { amount: 500 } }] };
    if (!modelUp) throw new Error('HTTP 503');
    return reportResults(request);
  };
  const { agent, store, first, counts } = await suspendedTransfer(script);

  modelUp = false;
  const error = await resumeStored(store, agent, first.continuation.id, {
    [first.actions[0]!.id]: { type: 'approve' },
  }).catch((caught: unknown) => caught);
  expect(isContinuationError(error, 'MODEL_ERROR')).toBe(true);
  expect(counts.transfers).toBe(1);

  // The approved continuation is spent; the state after the transfer waits in its place.
  expect((await store.load(first.continuation.id))!.status).toBe('completed');
  const { items } = await store.list({ status: 'suspended' });
  expect(items).toHaveLength(1);
  modelUp = true;
  const done = await resumeStored(store, agent, items[0]!.id);
  expect(done.status === 'completed' && done.output).toBe('done: transfer={"sent":500}');
  expect(counts.transfers).toBe(1);
});

it('streams a stored resume under a claim, with decisions made from the stored actions', async () => {
  const { agent, store, first, counts } = await suspendedTransfer([
    { toolCalls: [{ name: 'transfer', args: { amount: 500 } }] },
    'Sent it.',
  ]);

  const approveAll = (continuation: Parameters<typeof listActions>[0]) =>
    Object.fromEntries(listActions(continuation).map((action) => [action.id, { type: 'approve' as const }]));
  const run = await streamStored(store, agent, first.continuation.id, approveAll);
  // While it streams, the claim holds: a second approver gets CLAIM_CONFLICT and runs nothing.
  const second = await streamStored(store, agent, first.continuation.id, approveAll).catch(
    (error: unknown) => error,
  );
  expect(isContinuationError(second, 'CLAIM_CONFLICT')).toBe(true);

  const text: string[] = [];
  for await (const event of run) if (event.type === 'text-delta') text.push(event.delta);
  const result = await run.result;
  expect(result.status === 'completed' && result.output).toBe('Sent it.');
  expect(text.join('')).toBe('Sent it.');
  expect(counts.transfers).toBe(1);
  expect((await store.load(first.continuation.id))!.status).toBe('completed');
});

it('marks the run failed, never completed, when an error without a last good state ends it after tools ran', async () => {
  const { agent, store, first, counts } = await suspendedTransfer([
    { toolCalls: [{ name: 'transfer', args: { amount: 500 } }] },
    'Sent it.',
  ]);
  const id = first.continuation.id;
  const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
  // An observer (say, an audit log) fails once the transfer went out.
  const error = await resumeStored(store, agent, id, decisions, {
    onEvent: (event) => {
      if (event.type === 'tool-result') throw new Error('audit log unreachable');
    },
  }).catch((caught: unknown) => caught);
  expect((error as Error).message).toBe('audit log unreachable');
  expect(counts.transfers).toBe(1);
  expect(await store.load(id)).toMatchObject({ status: 'failed', error: 'audit log unreachable' });
  expect((await store.list({ status: 'failed' })).items.map((item) => item.id)).toEqual([id]);
  // Not resumed by accident: a second approval is refused and runs nothing.
  expect(
    isContinuationError(await resumeStored(store, agent, id, decisions).catch((e) => e), 'NOT_RESUMABLE'),
  ).toBe(true);
  expect(counts.transfers).toBe(1);
  // On purpose: retried, it resumes (here the tool does not de-duplicate, so it runs again).
  await store.retry(id);
  const done = await resumeStored(store, agent, id, decisions);
  expect(done.status === 'completed' && done.output).toBe('Sent it.');
  expect((await store.load(id))!.status).toBe('completed');
});

it('gives the claim back when the agent refuses the resume before anything ran', async () => {
  const { agent, store, first, counts } = await suspendedTransfer([
    { toolCalls: [{ name: 'transfer', args: { amount: 500 } }] },
    'Sent it.',
  ]);
  const id = first.continuation.id;
  // An agent that checks decisions only when it resumes (no checkDecisions).
  const plain = { name: agent.name, framework: agent.framework, run: agent.run, resume: agent.resume };
  const error = await resumeStored(store, plain, id, { nope: { type: 'approve' } }).catch((e: unknown) => e);
  expect(isContinuationError(error, 'UNKNOWN_ACTION')).toBe(true);
  expect((await store.load(id))!.status).toBe('suspended');
  const done = await resumeStored(store, plain, id, { [first.actions[0]!.id]: { type: 'approve' } });
  expect(done.status).toBe('completed');
  expect(counts.transfers).toBe(1);
});

it('never completes the record of a streamed resume that failed after tools ran', async () => {
  const { agent, store, first, counts } = await suspendedTransfer([
    { toolCalls: [{ name: 'transfer', args: { amount: 500 } }] },
    'Sent it.',
  ]);
  const id = first.continuation.id;
  const run = await streamStored(
    store,
    agent,
    id,
    { [first.actions[0]!.id]: { type: 'approve' } },
    {
      onEvent: (event) => {
        if (event.type === 'tool-result') throw new Error('audit log unreachable');
      },
    },
  );
  await expect(run.result).rejects.toThrow('audit log unreachable');
  expect(counts.transfers).toBe(1);
  expect((await store.load(id))!.status).toBe('failed');
});

it('does not swallow renewal failures: renewals that keep failing until the lease lapses abort the run', async () => {
  const counts = { transfers: 0, sawAbort: false };
  const agent = createContinuableAgent({
    name: 'bank',
    model: scriptedModel([{ toolCalls: [{ name: 'transfer', args: { amount: 500 } }] }, 'Sent it.']),
    tools: [
      defineTool({
        name: 'transfer',
        parameters: z.object({ amount: z.number() }),
        needsApproval: true,
        execute: async ({ amount }, ctx) => {
          counts.transfers++;
          // A slow transfer that stops when told to.
          while (!ctx.signal?.aborted) await new Promise((resolve) => setTimeout(resolve, 5));
          counts.sawAbort = true;
          return { sent: amount };
        },
      }),
    ],
  });
  const memory = createMemoryStore();
  // The store is unreachable for renewals (a network partition), though nobody took the claim.
  const store = Object.create(memory) as typeof memory;
  store.renew = async () => {
    throw new Error('ECONNRESET');
  };
  const first = await agent.run('send 500');
  if (first.status !== 'suspended') throw new Error('expected an approval');
  await memory.save(first.continuation);
  const error = await resumeStored(
    store,
    agent,
    first.continuation.id,
    { [first.actions[0]!.id]: { type: 'approve' } },
    { leaseMs: 60 },
  ).catch((caught: unknown) => caught);
  expect(isContinuationError(error, 'LEASE_LOST')).toBe(true);
  expect(String((error as Error).cause)).toContain('ECONNRESET');
  expect(counts).toEqual({ transfers: 1, sawAbort: true });
  // It wrote nothing: the continuation is not completed, and no next one was saved.
  expect((await memory.list()).items.map((item) => [item.id, item.status])).toEqual([
    [first.continuation.id, 'suspended'],
  ]);
});

it("asks the store's clock before a start only near the lease's end: not once well inside a long lease, at every start of a short one", async () => {
  const base = createMemoryStore();
  let asked = 0;
  // A store with a clock of its own, as Postgres and Redis have: each call is a round trip.
  const store = {
    ...base,
    now: async () => {
      asked += 1;
      return new Date();
    },
  };
  const lookup = defineTool({
    name: 'lookup',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => n,
  });
  const pay = defineTool({
    name: 'pay',
    parameters: z.object({ n: z.number() }),
    needsApproval: true,
    execute: ({ n }) => n,
  });
  const agent = createContinuableAgent({
    name: 'clocked',
    model: scriptedModel([
      { toolCalls: [{ name: 'pay', args: { n: 0 } }] },
      { toolCalls: [{ name: 'lookup', args: { n: 1 } }] },
      { toolCalls: [{ name: 'lookup', args: { n: 2 } }] },
      'done',
    ]),
    tools: [lookup, pay],
  });
  const resumeWith = async (leaseMs: number) => {
    const first = await agent.run('go');
    if (first.status !== 'suspended') throw new Error('expected the approval');
    await store.save(first.continuation);
    asked = 0;
    const result = await resumeStored(
      store,
      agent,
      first.continuation.id,
      { [first.actions[0]!.id]: { type: 'approve' } },
      { leaseMs },
    );
    expect(result.status).toBe('completed');
    return asked;
  };
  // Six starts (pay, then model, lookup, model, lookup, model): was one round trip each.
  expect(await resumeWith(30_000)).toBe(0);
  // A lease shorter than the margin is always near its end.
  expect(await resumeWith(1_000)).toBe(6);
});

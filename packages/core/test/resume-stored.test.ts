import {
  createContinuableAgent,
  createMemoryStore,
  defineTool,
  isContinuationError,
  resumeStored,
} from '@agent-continuations/core';
import { reportResults, type Script, scriptedModel } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';

it('keeps the last good state in the store when the model fails after decided calls ran', async () => {
  let modelUp = true;
  let transfers = 0;
  const script: Script = (request) => {
    const turn = request.messages.filter((m) => m.role === 'assistant').length;
    if (turn === 0) return { toolCalls: [{ name: 'transfer', args: { amount: 500 } }] };
    if (!modelUp) throw new Error('HTTP 503');
    return reportResults(request);
  };
  const agent = createContinuableAgent({
    name: 'bank',
    model: scriptedModel(script),
    tools: [
      defineTool({
        name: 'transfer',
        parameters: z.object({ amount: z.number() }),
        needsApproval: true,
        execute: async ({ amount }) => {
          transfers++;
          return { sent: amount };
        },
      }),
    ],
  });
  const store = createMemoryStore();
  const first = await agent.run('send 500');
  if (first.status !== 'suspended') throw new Error('expected an approval');
  await store.save(first.continuation);

  modelUp = false;
  const error = await resumeStored(store, agent, first.continuation.id, {
    [first.actions[0]!.id]: { type: 'approve' },
  }).catch((caught: unknown) => caught);
  expect(isContinuationError(error, 'MODEL_ERROR')).toBe(true);
  expect(transfers).toBe(1);

  // The approved continuation is spent; the state after the transfer waits in its place.
  expect((await store.load(first.continuation.id))!.status).toBe('completed');
  const { items } = await store.list({ status: 'suspended' });
  expect(items).toHaveLength(1);
  modelUp = true;
  const done = await resumeStored(store, agent, items[0]!.id);
  expect(done.status === 'completed' && done.output).toBe('done: transfer={"sent":500}');
  expect(transfers).toBe(1);
});

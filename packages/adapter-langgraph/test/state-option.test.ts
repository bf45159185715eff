import { isContinuationError } from '@agent-continuations/core';
import { type Counts, lookupTool, reportResults, transferTool } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { fromGraph } from '../src';
import { buildGraph, conformanceTools } from './harness';
import { ScriptedChatModel } from './scripted-chat-model';

function agent(counts: Counts, model: ScriptedChatModel) {
  const tools = conformanceTools([lookupTool(counts), transferTool(counts)]);
  return fromGraph(buildGraph('react', model, tools, 'Pay.'), { name: 'payer' });
}

const refused = (error: unknown) =>
  isContinuationError(error) && error.code === 'INVALID_OPERATION' && /state/.test(error.message);

it('RunOptions.state is refused with INVALID_OPERATION on run, resume and stream, before anything runs', async () => {
  const counts: Counts = {};
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 5 } }] },
    reportResults,
  ]);
  const payer = agent(counts, model);
  await expect(payer.run('pay bob', { state: { mine: 1 } })).rejects.toSatisfy(refused);
  await expect(payer.stream('pay bob', { state: { mine: 1 } }).result).rejects.toSatisfy(refused);
  expect(model.requests).toHaveLength(0);

  const first = await payer.run('pay bob');
  if (first.status !== 'suspended') throw new Error(`expected a suspension, got ${first.status}`);
  const approve = { [first.actions[0]!.id]: { type: 'approve' as const } };
  await expect(payer.resume(first.continuation, approve, { state: null })).rejects.toSatisfy(refused);
  await expect(
    payer.stream({ continuation: first.continuation, decisions: approve }, { state: 'x' }).result,
  ).rejects.toSatisfy(refused);
  expect(counts.transfer).toBeUndefined();
  expect(model.requests).toHaveLength(1);

  const done = await payer.resume(first.continuation, approve);
  expect(done.status).toBe('completed');
  expect(counts.transfer).toBe(1);
});

import type { PredicateContext } from '@agent-continuations/core';
import { type Counts, lastToolResults, lookupTool } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { fromGraph } from '../src';
import { buildGraph, conformanceTools } from './harness';
import { ScriptedChatModel } from './scripted-chat-model';

function looper(counts: Counts, suspendWhen: Array<(context: PredicateContext) => Promise<boolean>>) {
  const model = new ScriptedChatModel((request) => {
    const turns = request.messages.filter((message) => message.role === 'assistant').length;
    if (turns < 4) return { toolCalls: [{ name: 'lookup_account', args: { account: `A-${turns}` } }] };
    return `looked up ${lastToolResults(request.messages).length} at the end`;
  });
  return fromGraph(buildGraph('react', model, conformanceTools([lookupTool(counts)]), 'Look things up.'), {
    name: 'looper',
    suspendWhen,
  });
}

it('an async predicate is answered before the boundary it fires at', async () => {
  const counts: Counts = {};
  // e.g. a budget looked up in a database
  const overBudget = async function overBudget(context: PredicateContext) {
    await new Promise((resolve) => setImmediate(resolve));
    return context.step - context.segment.step >= 2;
  };
  let result = await looper(counts, [overBudget]).run('go');
  const steps: number[] = [];
  while (result.status === 'suspended') {
    expect(result.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['overBudget'] });
    expect(result.continuation.pending).toEqual([]);
    steps.push(result.continuation.step);
    result = await looper(counts, [overBudget]).resume(JSON.parse(JSON.stringify(result.continuation)));
    expect(steps.length).toBeLessThan(10);
  }
  expect(steps).toEqual([2, 4]);
  expect(result.status).toBe('completed');
  if (result.status === 'completed') expect(result.output).toBe('looked up 1 at the end');
  expect(counts.lookup_account).toBe(4);
});

import { onAbort, type PredicateContext, serializeContinuation } from '@agent-continuations/core';
import { type Counts, lastToolResults, lookupTool, reportResults } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, fromGraph } from '../src';
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

describe('inherited predicates', () => {
  it("onAbort given to the parent's run reaches a running sub-agent: the tree suspends, resume(c, {}) goes on", async () => {
    const controller = new AbortController();
    const counts: Counts = {};
    const build = () => {
      const drain = tool(
        async () => {
          counts.drain = (counts.drain ?? 0) + 1;
          controller.abort(); // a shutdown begins while the sub-agent runs
          return 'drained';
        },
        { name: 'drain', description: 'Drain', schema: z.object({}) },
      );
      const worker = fromGraph(
        createReactAgent({
          llm: new ScriptedChatModel([{ toolCalls: [{ name: 'drain', args: {} }] }, reportResults]),
          tools: [drain],
          version: 'v2',
        }),
        { name: 'worker' },
      );
      return fromGraph(
        createReactAgent({
          llm: new ScriptedChatModel([
            { toolCalls: [{ name: 'worker', args: { input: 'drain it' } }] },
            reportResults,
          ]),
          tools: [agentTool(worker)],
          version: 'v2',
        }),
        { name: 'boss' },
      );
    };
    const first = await build().run('go', { suspendWhen: [onAbort(controller.signal)] });
    if (first.status !== 'suspended') throw new Error(`expected a suspension, got ${first.status}`);
    expect(first.actions).toEqual([]);
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['call_1_0/onAbort'] });
    expect(counts).toEqual({ drain: 1 });
    const done = await build().resume(serializeContinuation(first.continuation), {});
    expect(done.status).toBe('completed');
    if (done.status === 'completed') expect(done.output).toBe('done: worker="done: drain=\\"drained\\""');
    expect(counts).toEqual({ drain: 1 });
  });
});

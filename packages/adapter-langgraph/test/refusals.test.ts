import { type Continuation, isContinuationError, serializeContinuation } from '@agent-continuations/core';
import { type Counts, reportResults } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { END, interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { createReactAgent, ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

function tools(counts: Counts) {
  const transfer = tool(
    async ({ to }) => {
      counts.transfer = (counts.transfer ?? 0) + 1;
      return `paid ${to}`;
    },
    { name: 'transfer', description: 'Transfer', schema: z.object({ to: z.string() }) },
  );
  return requireApproval([transfer]);
}

/** A custom graph whose model node is called `modelNode`. */
function customGraph(counts: Counts, modelNode: string, llm: ScriptedChatModel) {
  const list = tools(counts);
  const bound = llm.bindTools(list);
  return new StateGraph(MessagesAnnotation)
    .addNode(modelNode, async (state) => ({ messages: [await bound.invoke(state.messages)] }))
    .addNode('tools', new ToolNode(list))
    .addEdge(START, modelNode)
    .addConditionalEdges(modelNode, toolsCondition, ['tools', END])
    .addEdge('tools', modelNode)
    .compile();
}

describe('refusals', () => {
  it('a state made by a graph with a renamed node: STATE_MISMATCH, and nothing runs', async () => {
    const counts: Counts = {};
    const script = [{ toolCalls: [{ name: 'transfer', args: { to: 'bob' } }] }, reportResults];
    const first = await fromGraph(customGraph(counts, 'model', new ScriptedChatModel(script)), {
      name: 'pay',
    }).run('pay bob');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const llm = new ScriptedChatModel(script);
    const renamed = fromGraph(customGraph(counts, 'call_llm', llm), { name: 'pay' });
    const error = await renamed
      .resume(serializeContinuation(first.continuation), { [first.actions[0]!.id]: { type: 'approve' } })
      .catch((caught: unknown) => caught);
    expect(isContinuationError(error, 'STATE_MISMATCH')).toBe(true);
    expect(String((error as Error).message)).toContain('model');
    expect(counts.transfer ?? 0).toBe(0);
    expect(llm.requests).toHaveLength(0);
  });

  it('a malformed state: STATE_MISMATCH', async () => {
    const counts: Counts = {};
    const script = [{ toolCalls: [{ name: 'transfer', args: { to: 'bob' } }] }, reportResults];
    const agent = fromGraph(customGraph(counts, 'model', new ScriptedChatModel(script)), { name: 'pay' });
    const first = await agent.run('pay bob');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const broken = { ...first.continuation, state: { v: 1, nodes: 'model' } };
    const error = await agent
      .resume(broken, { [first.actions[0]!.id]: { type: 'approve' } })
      .catch((caught: unknown) => caught);
    expect(isContinuationError(error, 'STATE_MISMATCH')).toBe(true);
    expect(counts.transfer ?? 0).toBe(0);
  });

  it('createReactAgent v1 with two plain interrupt() calls in one step is refused; the error carries a continuation a v2 graph resumes', async () => {
    // (Two calls of this adapter's own wrappers suspend instead: interrupt-shapes.test.ts.)
    const counts: Counts = {};
    const llm = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'transfer', args: { to: 'bob' } },
          { name: 'transfer', args: { to: 'eve' } },
        ],
      },
      reportResults,
    ]);
    const transfer = tool(
      async ({ to }) => {
        interrupt({ question: `Pay ${to}?` });
        counts.transfer = (counts.transfer ?? 0) + 1;
        return `paid ${to}`;
      },
      { name: 'transfer', description: 'Transfer', schema: z.object({ to: z.string() }) },
    );
    const agent = fromGraph(createReactAgent({ llm, tools: [transfer], version: 'v1' }), { name: 'pay' });
    const error = await agent.run('pay both').catch((caught: unknown) => caught);
    expect(isContinuationError(error, 'INVALID_OPERATION')).toBe(true);
    expect(String((error as Error).message)).toContain("version: 'v2'");
    expect(counts.transfer ?? 0).toBe(0);
    // The run is not lost: the error's continuation (after the model call) resumes in v2.
    const saved = (error as { continuation?: Continuation }).continuation;
    if (!saved) throw new Error('expected a continuation on the error');
    expect(saved.step).toBe(1);
    const v2llm = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'transfer', args: { to: 'bob' } },
          { name: 'transfer', args: { to: 'eve' } },
        ],
      },
      reportResults,
    ]);
    const v2 = fromGraph(createReactAgent({ llm: v2llm, tools: [transfer], version: 'v2' }), { name: 'pay' });
    const asked = await v2.resume(serializeContinuation(saved));
    if (asked.status !== 'suspended') throw new Error('expected the two questions');
    expect(asked.actions.map((action) => action.toolCallId)).toEqual(['call_1_0', 'call_1_1']);
    expect(v2llm.requests).toHaveLength(0);
    const done = await v2.resume(asked.continuation, {
      call_1_0: { type: 'input', value: 'yes' },
      call_1_1: { type: 'input', value: 'yes' },
    });
    expect(done.status).toBe('completed');
    expect(counts.transfer).toBe(2);
  });

  it('a static interruptBefore pause is reported as a suspension and resumes', async () => {
    const counts: Counts = {};
    const llm = new ScriptedChatModel([
      { toolCalls: [{ name: 'transfer', args: { to: 'bob' } }] },
      reportResults,
    ]);
    const list = tools(counts);
    const bound = llm.bindTools(list);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('model', async (state) => ({ messages: [await bound.invoke(state.messages)] }))
      .addNode('tools', new ToolNode(list))
      .addEdge(START, 'model')
      .addConditionalEdges('model', toolsCondition, ['tools', END])
      .addEdge('tools', 'model')
      .compile({ interruptBefore: ['tools'] });
    const agent = fromGraph(graph, { name: 'pay' });
    const first = await agent.run('pay bob');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.continuation.suspendedBy).toEqual({
      type: 'predicate',
      predicates: ['interruptBefore(tools)'],
    });
    expect(first.actions).toEqual([]);
    const second = await agent.resume(serializeContinuation(first.continuation));
    if (second.status !== 'suspended') throw new Error('expected the approval next');
    expect(second.actions.map((a) => a.toolName)).toEqual(['transfer']);
    const done = await agent.resume(second.continuation, { [second.actions[0]!.id]: { type: 'approve' } });
    expect(done.status).toBe('completed');
    expect(counts.transfer).toBe(1);
  });

  it('a static interruptAfter pause is reported too', async () => {
    const counts: Counts = {};
    const llm = new ScriptedChatModel([{ toolCalls: [{ name: 'lookup', args: {} }] }, 'all good']);
    const lookup = tool(
      async () => {
        counts.lookup = (counts.lookup ?? 0) + 1;
        return 'fine';
      },
      { name: 'lookup', description: 'Look', schema: z.object({}) },
    );
    const graph = createReactAgent({ llm, tools: [lookup], version: 'v2', interruptAfter: ['tools'] });
    const agent = fromGraph(graph, { name: 'looker' });
    const first = await agent.run('look');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.continuation.suspendedBy).toEqual({
      type: 'predicate',
      predicates: ['interruptAfter(tools)'],
    });
    expect(counts.lookup).toBe(1);
    const done = await fromGraph(graph, { name: 'looker' }).resume(serializeContinuation(first.continuation));
    expect(done.status).toBe('completed');
    if (done.status === 'completed') expect(done.output).toBe('all good');
    expect(counts.lookup).toBe(1);
  });
});

import { serializeContinuation } from '@agent-continuations/core';
import { type Counts, lastToolResults } from '@agent-continuations/testing';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { END, MessagesDeltaValue, START, StateGraph, StateSchema } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

/** A custom graph whose messages live in a DeltaChannel (only per-step deltas are checkpointed). */
function build(counts: Counts) {
  const lookup = tool(
    async ({ n }) => {
      counts.lookup = (counts.lookup ?? 0) + 1;
      return `value ${n}`;
    },
    { name: 'lookup', description: 'Look up', schema: z.object({ n: z.number() }) },
  );
  const restart = tool(
    async () => {
      counts.restart = (counts.restart ?? 0) + 1;
      return 'restarted';
    },
    { name: 'restart', description: 'Restart', schema: z.object({}) },
  );
  const tools = requireApproval([lookup, restart], ['restart']);
  const llm = new ScriptedChatModel((request) => {
    const turn = request.messages.filter((message) => message.role === 'assistant').length;
    if (turn < 4) return { toolCalls: [{ name: 'lookup', args: { n: turn } }] };
    if (turn === 4) return { toolCalls: [{ name: 'restart', args: {} }] };
    return `messages seen: ${request.messages.length}, last: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`;
  }).bindTools(tools);
  const graph = new StateGraph(new StateSchema({ messages: MessagesDeltaValue }))
    .addNode('model', async (state) => ({ messages: [await llm.invoke(state.messages)] }))
    .addNode('tools', new ToolNode(tools))
    .addEdge(START, 'model')
    .addConditionalEdges('model', (state) => {
      const last = state.messages.at(-1);
      return last && AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
    })
    .addEdge('tools', 'model')
    .compile();
  return fromGraph(graph, { name: 'delta' });
}

it('a graph with a DeltaChannel carries the history its channel needs, and resumes with the whole transcript', async () => {
  const counts: Counts = {};
  const first = await build(counts).run('go');
  if (first.status !== 'suspended') throw new Error('expected a suspension');
  expect(first.continuation.messages).toHaveLength(10);
  const done = await build(counts).resume(serializeContinuation(first.continuation), {
    [first.actions[0]!.id]: { type: 'approve' },
  });
  expect(done.status).toBe('completed');
  if (done.status === 'completed') expect(done.output).toBe('messages seen: 11, last: "restarted"');
  expect(counts).toEqual({ lookup: 4, restart: 1 });
});
